package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.HostilePeer;
import dev.strand.testkit.NettyLeakDetectorExtension;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * HTTP proxies scripted byte for byte ({@link HostilePeer}) that answer CONNECT with something other than
 * a response: each is a {@link ConnectException} naming the proxy and the target, well within the
 * connect timeout, with no connection left open.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class ProxyBadPeerTest {
  /** The connect timeout: a failure must come well before it. */
  private static final Duration CONNECT = Duration.ofSeconds(5);

  private static void write(OutputStream out, String s) throws java.io.IOException {
    out.write(s.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
  }

  private static ConnectException tunnelFails(HostilePeer.Script proxyScript, String why) throws Exception {
    return tunnelFails(proxyScript, why, null);
  }

  /** As above, the proxy answered by {@code auth} (none if {@code null}). */
  private static ConnectException tunnelFails(HostilePeer.Script proxyScript, String why, ProxyAuthenticator auth)
      throws Exception {
    try (HostilePeer proxy = new HostilePeer(proxyScript);
        Client client = Client.builder().proxy(auth == null ? Proxy.http("127.0.0.1:" + proxy.port())
                : Proxy.http("127.0.0.1:" + proxy.port()).withAuthenticator(auth))
            .timeout(Timeout.DEFAULT.withConnect(CONNECT)).build()) {
      long start = System.nanoTime();
      ConnectException e = assertThrows(ConnectException.class, () -> client.get("https://localhost:1/x"));
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(millis < CONNECT.toMillis() / 2, millis + " ms: " + e);
      assertEquals(ConnectException.class, e.getClass(), e.toString());
      assertTrue(e.getMessage().startsWith("proxy 127.0.0.1:" + proxy.port() + " ")
          && e.getMessage().contains("localhost:1") && e.getMessage().contains(why)
          && e.getMessage().endsWith("(GET https://localhost:1/x)"), e.getMessage());
      // The pool's counters all back to zero: nothing open, in use or waiting.
      ClientStats stats = client.stats();
      assertEquals(0, stats.open() + stats.idle() + stats.inUse() + stats.pending(), stats.toString());
      return e;
    }
  }

  @Test
  void garbageForAConnectResponse() throws Exception {
    tunnelFails(c -> {
      c.readHead();
      OutputStream out = c.out();
      InputStream in = c.in();
      write(out, "SSH-2.0-OpenSSH_9.6\r\n\r\n");
      in.read(); // until the client hangs up
    }, "not an HTTP response");
  }

  @Test
  void aConnectResponseHeadOver64KiB() throws Exception {
    tunnelFails(c -> {
      c.readHead();
      OutputStream out = c.out();
      InputStream in = c.in();
      write(out, "HTTP/1.1 200 Connection established\r\n");
      for (int i = 0; i < 70; i++) {
        write(out, "X-Filler-" + i + ": " + "x".repeat(1000) + "\r\n");
      }
      write(out, "\r\n");
      in.read();
    }, "too large");
  }

  @Test
  void theProxyClosingMidResponse() throws Exception {
    tunnelFails(c -> {
      c.readHead();
      write(c.out(), "HTTP/1.1 200 Connection est");
    }, "closed the connection before the tunnel was open");
  }

  /** A 407 with a fresh nonce to every answer, on one connection: the rounds are bounded. */
  @Test
  void a407LoopOnOneConnection() throws Exception {
    AtomicInteger rounds = new AtomicInteger();
    ConnectException e = tunnelFails(c -> {
      while (c.readHead() != null) {
        write(c.out(), "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Digest realm=\"r\", nonce=\"n"
            + rounds.incrementAndGet() + "\", qop=\"auth\"\r\nContent-Length: 0\r\n\r\n");
      }
    }, "407 Proxy Authentication Required (still, after 4 answered challenges)", ProxyAuthenticator.digest("u", "p"));
    assertEquals(5, rounds.get(), e.getMessage());
  }

  /** The same, the proxy closing each connection after its 407: the reconnections are bounded too. */
  @Test
  void a407LoopOverNewConnections() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    tunnelFails(c -> {
      connections.incrementAndGet();
      c.readHead();
      write(c.out(), "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Digest realm=\"r\", nonce=\"n"
          + connections.get() + "\", qop=\"auth\"\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    }, "407 Proxy Authentication Required", ProxyAuthenticator.digest("u", "p"));
    assertEquals(5, connections.get());
  }

  /** An authenticator that keeps giving the answer just refused is not asked forever. */
  @Test
  void aRepeatedAnswerIsNotSentAgain() throws Exception {
    AtomicInteger requests = new AtomicInteger();
    tunnelFails(c -> {
      while (c.readHead() != null) {
        requests.incrementAndGet();
        write(c.out(), "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"r\"\r\n"
            + "Content-Length: 0\r\n\r\n");
      }
    }, "407 Proxy Authentication Required", ProxyAuthenticator.basic("u", "wrong"));
    assertEquals(1, requests.get(), "Basic was sent preemptively and refused: nothing new to answer with");
  }

  @Test
  void aMalformedStatusLine() throws Exception {
    tunnelFails(c -> {
      c.readHead();
      write(c.out(), "HTTP/1.1 2x0 Connection established\r\n\r\n");
      c.in().read();
    }, "not an HTTP response");
  }

  /**
   * The same, a hundred times: the proxy's close may be read before or after the dialer listens for the tunnel,
   * and either way the call fails at once with the same TlsException. Read first, it once made a
   * ConnectException in about one try in fifty, and a call that never ended in about one in three hundred
   * (the dialer's listener threw on the emptied pipeline and nothing completed the dial).
   */
  @Test
  void twoHundredThenCloseFailsTheSameWayWhateverTheTiming() throws Exception {
    try (HostilePeer proxy = new HostilePeer(c -> {
          c.readHead();
          write(c.out(), "HTTP/1.1 200 Connection established\r\n\r\n");
        })) {
      for (int i = 0; i < 100; i++) {
        try (Client client = Client.builder().proxy(Proxy.http("127.0.0.1:" + proxy.port()))
            .timeout(Timeout.DEFAULT.withConnect(CONNECT)).build()) {
          TransportException e = assertTimeoutPreemptively(CONNECT,
              () -> assertThrows(TransportException.class, () -> client.get("https://localhost:1/x")), "try " + i);
          assertEquals(TlsException.class, e.getClass(), "try " + i + ": " + e);
        }
      }
    }
  }

  /**
   * 200, then the proxy hangs up before TLS to the server could start: a TlsException at once (the close
   * interrupts the handshake), saying the connection closed, not naming Netty's stackless exception.
   */
  @Test
  void twoHundredThenClose() throws Exception {
    try (HostilePeer proxy = new HostilePeer(c -> {
          c.readHead();
          write(c.out(), "HTTP/1.1 200 Connection established\r\n\r\n");
        });
        Client client = Client.builder().proxy(Proxy.http("127.0.0.1:" + proxy.port()))
            .timeout(Timeout.DEFAULT.withConnect(CONNECT)).build()) {
      long start = System.nanoTime();
      TransportException e = assertThrows(TransportException.class, () -> client.get("https://localhost:1/x"));
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(millis < CONNECT.toMillis() / 2, millis + " ms: " + e);
      assertEquals(TlsException.class, e.getClass(), e.toString());
      assertTrue(e.getMessage().startsWith("TLS handshake with localhost:1 failed: the connection was closed during "
          + "the handshake") && e.getMessage().contains("by a proxy that opened the tunnel and then hung up"),
          e.getMessage());
      ClientStats stats = client.stats();
      assertEquals(0, stats.open() + stats.idle() + stats.inUse() + stats.pending(), stats.toString());
    }
  }

  @Test
  void aForwardingProxysBadGatewayIsAnOrdinaryResponse() throws Exception {
    try (HostilePeer proxy = new HostilePeer(c -> {
          String head = c.readHead();
          OutputStream out = c.out();
          InputStream in = c.in();
          String line = head.substring(0, head.indexOf("\r\n"));
          if (!line.equals("GET http://example.test/x HTTP/1.1")) {
            throw new AssertionError(line);
          }
          write(out, "HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nContent-Length: 15\r\n\r\nupstream is down");
          in.read();
        });
        Client client = Client.builder().proxy(Proxy.http("127.0.0.1:" + proxy.port())).build()) {
      Response r = client.get("http://example.test/x");
      assertEquals(502, r.status());
      assertEquals("Bad Gateway", r.reason());
      assertEquals("upstream is down".substring(0, 15), r.text());
      HttpStatusException e = assertThrows(HttpStatusException.class, r::raiseForStatus);
      assertEquals(502, e.status());
    }
  }
}
