package dev.strand.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.Client;
import dev.strand.Request;
import dev.strand.Response;
import dev.strand.testkit.HostilePeer;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.PeerConnection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Whether a connection may carry the next request (RFC 9112 9.3): the first response of each case is
 * odd; a second request then goes through a client with a single connection. Bytes a response did not
 * frame are never read as the next response: the connection is dropped and the second request gets a
 * fresh one and its own answer. Every ordinary answer names where it came from: "c{connection}r{request}".
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http1ReuseTest {
  private static final String EVIL = "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nevil";

  /** What the peer does after its first answer on its first connection. */
  @FunctionalInterface
  interface Then {
    /** Returns whether to go on serving that connection. */
    boolean run(PeerConnection c) throws Exception;
  }

  private static final Then SERVE_ON = c -> true;
  private static final Then HOLD = c -> {
    c.awaitClientClose(Peers.HOLD);
    return false;
  };
  private static final Then CLOSE = c -> false;

  private static Then later(String bytes) {
    return c -> {
      Thread.sleep(150);
      c.write(bytes);
      return true;
    };
  }

  private static final Then CLOSE_LATER = c -> {
    Thread.sleep(150);
    return false;
  };
  private static final Then RESET_LATER = c -> {
    Thread.sleep(150);
    c.reset();
    return false;
  };

  static Stream<Arguments> cases() {
    String c1r1 = "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nc1r1";
    return Stream.of(
        Arguments.of("plain keep-alive", "GET", c1r1, SERVE_ON, 200, "c1r1", "c1r2", 1),
        Arguments.of("Connection: close, then FIN", "GET", "HTTP/1.1 200 OK\r\nConnection: close\r\n"
            + "Content-Length: 4\r\n\r\nc1r1", CLOSE, 200, "c1r1", "c2r1", 2),
        Arguments.of("Connection: close, held open", "GET", "HTTP/1.1 200 OK\r\nConnection: close\r\n"
            + "Content-Length: 4\r\n\r\nc1r1", HOLD, 200, "c1r1", "c2r1", 2),
        Arguments.of("HTTP/1.0 without keep-alive, held open", "GET", "HTTP/1.0 200 OK\r\nContent-Length: 4\r\n\r\nc1r1",
            HOLD, 200, "c1r1", "c2r1", 2),
        Arguments.of("HTTP/1.0 with Connection: keep-alive", "GET", "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\n"
            + "Content-Length: 4\r\n\r\nc1r1", SERVE_ON, 200, "c1r1", "c1r2", 1),
        Arguments.of("a body after 204", "GET", "HTTP/1.1 204 No Content\r\n\r\n" + EVIL, SERVE_ON, 204, "", "c2r1", 2),
        Arguments.of("a body after 204 with Content-Length", "GET", "HTTP/1.1 204 No Content\r\nContent-Length: 4\r\n\r\n"
            + "evil", SERVE_ON, 204, "", "c2r1", 2),
        Arguments.of("a body after 304", "GET", "HTTP/1.1 304 Not Modified\r\nContent-Length: 4\r\n\r\n" + EVIL,
            SERVE_ON, 304, "", "c2r1", 2),
        Arguments.of("a body after a HEAD response", "HEAD", "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n" + EVIL,
            SERVE_ON, 200, "", "c2r1", 2),
        Arguments.of("extra bytes after a Content-Length body", "GET", c1r1 + "EXTRA", SERVE_ON, 200, "c1r1", "c2r1", 2),
        Arguments.of("a whole response after a Content-Length body", "GET", c1r1 + EVIL, SERVE_ON, 200, "c1r1", "c2r1",
            2),
        Arguments.of("a response after the last chunk", "GET", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "4\r\nc1r1\r\n0\r\n\r\n" + EVIL, SERVE_ON, 200, "c1r1", "c2r1", 2),
        Arguments.of("bytes on the idle connection", "GET", c1r1, later(EVIL), 200, "c1r1", "c2r1", 2),
        Arguments.of("the idle connection closed", "GET", c1r1, CLOSE_LATER, 200, "c1r1", "c2r1", 2),
        Arguments.of("the idle connection reset", "GET", c1r1, RESET_LATER, 200, "c1r1", "c2r1", 2));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void nextRequest(String name, String firstMethod, String firstAnswer, Then then, int firstStatus, String firstBody,
      String secondBody, int connections) throws Exception {
    try (HostilePeer peer = new HostilePeer(script(firstAnswer, then)); Client client = Peers.http1()) {
      Peers.check(client, Request.builder(firstMethod, peer.url("/")).build(), Outcome.ok(firstStatus, firstBody));
      Thread.sleep(400); // past the peer's late moves (150 ms): the idle connection has seen them
      Peers.check(client, Request.builder("GET", peer.url("/")).build(), Outcome.ok(200, secondBody));
      assertEquals(connections, peer.accepted(), "connections opened");
    }
  }

  /**
   * The cases where the peer's odd bytes come with its answer, not later on an idle connection: there a
   * queued request is already on its way and the late bytes are indistinguishable from its answer.
   */
  static Stream<Arguments> queuedCases() {
    return cases().filter(a -> !((String) a.get()[0]).contains("idle"));
  }

  /** The second request is already queued behind the first when the first's stray bytes arrive. */
  @ParameterizedTest(name = "queued behind {0}")
  @MethodSource("queuedCases")
  void queuedRequest(String name, String firstMethod, String firstAnswer, Then then, int firstStatus,
      String firstBody, String secondBody, int connections) throws Exception {
    try (HostilePeer peer = new HostilePeer(script(firstAnswer, then)); Client client = Peers.http1()) {
      CompletableFuture<Response> first = client.async().send(Request.builder(firstMethod, peer.url("/")).build());
      CompletableFuture<Response> second = client.async().send(Request.builder("GET", peer.url("/")).build());
      Response r1 = first.get(5, TimeUnit.SECONDS);
      assertEquals(firstStatus, r1.status());
      assertEquals(firstBody, r1.text());
      Response r2 = second.get(5, TimeUnit.SECONDS);
      assertEquals(200, r2.status());
      assertEquals(secondBody, r2.text(), "the queued request's answer");
      PoolCheck.settled(client);
    }
  }

  private static HostilePeer.Script script(String firstAnswer, Then then) {
    return c -> {
      for (int request = 1; c.readHead() != null; request++) {
        if (c.number() == 1 && request == 1) {
          c.write(firstAnswer);
          if (!then.run(c)) {
            return;
          }
        } else {
          String body = "c" + c.number() + "r" + request;
          c.write("HTTP/1.1 200 OK\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);
        }
      }
    };
  }

}
