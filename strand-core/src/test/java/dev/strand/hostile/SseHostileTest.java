package dev.strand.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.EventStream;
import dev.strand.HttpException;
import dev.strand.ProtocolException;
import dev.strand.ServerSentEvent;
import dev.strand.testkit.HostilePeer;
import dev.strand.testkit.NettyLeakDetectorExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Event streams that would exhaust memory: lines and events past the client's limit (1 KiB here) fail with
 * a ProtocolException naming it, however much more the server would send. The server generates its
 * bytes on the fly, up to 1 GiB, and never holds them.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class SseHostileTest {
  private static final int MAX_EVENT = 1024;
  private static final long GIB = 1L << 30;
  private static final String HEAD = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";

  /** A peer that sends the head, then {@code piece} as a chunk again and again, up to 1 GiB, unless the client leaves. */
  private static HostilePeer.Script endless(String first, String piece) {
    byte[] chunk = chunk(piece.repeat(Math.max(1, 16_384 / piece.length())));
    return c -> {
      c.readHead();
      c.write(HEAD);
      if (!first.isEmpty()) {
        c.write(chunk(first));
      }
      for (long sent = 0; sent < GIB; sent += chunk.length) {
        c.write(chunk);
      }
    };
  }

  private static byte[] chunk(String s) {
    byte[] data = s.getBytes(StandardCharsets.UTF_8);
    byte[] head = (Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
    byte[] out = new byte[head.length + data.length + 2];
    System.arraycopy(head, 0, out, 0, head.length);
    System.arraycopy(data, 0, out, head.length, data.length);
    out[out.length - 2] = '\r';
    out[out.length - 1] = '\n';
    return out;
  }

  static Stream<Arguments> floods() {
    return Stream.of(
        Arguments.of("a line without end", "data: ", "x"),
        Arguments.of("a comment line without end", ":", "x"),
        Arguments.of("a field name without end", "", "n"),
        Arguments.of("an event of endless data lines", "", "data: 0123456789abcdef\n"),
        Arguments.of("an event of endless empty data lines", "", "data\n"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("floods")
  void overTheLimit(String name, String first, String piece) throws Exception {
    try (HostilePeer peer = new HostilePeer(endless(first, piece));
        Client client = Client.builder().timeout(Peers.TIMEOUT).maxEventSize(MAX_EVENT).build()) {
      HttpException e = assertTimeoutPreemptively(Outcome.DEADLINE, () -> {
        try (EventStream events = client.events(peer.url("/"))) {
          return assertThrows(HttpException.class, events::next);
        }
      });
      assertEquals(ProtocolException.class, e.getClass(), e.toString());
      assertTrue(e.getMessage().contains(String.valueOf(MAX_EVENT)), e.getMessage());
      PoolCheck.empty(client);
    }
  }

  /** Comments are dropped as they come, so a gigabyte of them between two events is no burden. */
  @Test
  void endlessCommentsThenAnEventAreFine() throws Exception {
    byte[] comments = chunk(": keep-alive\n".repeat(1000));
    try (HostilePeer peer = new HostilePeer(c -> {
          c.readHead();
          c.write(HEAD);
          for (int i = 0; i < 2000; i++) { // 26 MB
            c.write(comments);
          }
          c.write(chunk("data: after\n\n"));
          c.write("0\r\n\r\n");
          c.awaitClientClose(Peers.HOLD);
        });
        Client client = Client.builder().timeout(Peers.TIMEOUT).maxEventSize(MAX_EVENT).build()) {
      assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
        try (EventStream events = client.events(peer.url("/"))) {
          assertEquals(new ServerSentEvent("message", "after", "", null), events.next());
          assertNull(events.next());
        }
      });
      PoolCheck.settled(client);
    }
  }
}
