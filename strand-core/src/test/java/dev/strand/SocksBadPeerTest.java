package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.HostilePeer;
import dev.strand.testkit.NettyLeakDetectorExtension;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * SOCKS5 proxies scripted byte for byte ({@link HostilePeer}) whose replies are cut short, refuse, or never
 * come: each a typed exception naming the proxy and the target, within the connect timeout, with no
 * connection left open.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class SocksBadPeerTest {
  private static final Duration CONNECT = Duration.ofSeconds(2);

  /** Reads the client's greeting (VER, NMETHODS, METHODS) and answers "no authentication". */
  private static void greet(InputStream in, OutputStream out) throws java.io.IOException {
    byte[] head = in.readNBytes(2);
    in.readNBytes(head[1]);
    out.write(new byte[] {5, 0});
    out.flush();
  }

  private static <T extends HttpException> T tunnelFails(Class<T> type, HostilePeer.Script script, String why)
      throws Exception {
    try (HostilePeer proxy = new HostilePeer(script);
        Client client = Client.builder().proxy(Proxy.socks5("127.0.0.1:" + proxy.port()))
            .timeout(Timeout.DEFAULT.withConnect(CONNECT)).build()) {
      long start = System.nanoTime();
      T e = assertThrows(type, () -> client.get("http://origin.test:8080/x"));
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(millis < CONNECT.toMillis() + 1_000, millis + " ms: " + e);
      assertTrue(e.getMessage().contains("127.0.0.1:" + proxy.port()) && e.getMessage().contains("origin.test:8080")
          && e.getMessage().contains(why), e.getMessage());
      // The pool's counters all back to zero: nothing open, in use or waiting.
      ClientStats stats = client.stats();
      assertEquals(0, stats.open() + stats.idle() + stats.inUse() + stats.pending(), stats.toString());
      return e;
    }
  }

  @Test
  void aGreetingReplyCutShort() throws Exception {
    tunnelFails(ConnectException.class, c -> {
      c.in().readNBytes(3);
      c.out().write(5); // the version, then the close: the method byte never comes
      c.out().flush();
    }, "failed to open a tunnel to origin.test:8080: it closed the connection before the tunnel was open");
  }

  @Test
  void aConnectReplyCutShort() throws Exception {
    tunnelFails(ConnectException.class, c -> {
      greet(c.in(), c.out());
      c.in().readNBytes(5 + "origin.test".length() + 2); // VER CMD RSV ATYP LEN NAME PORT
      c.out().write(new byte[] {5, 0, 0, 1, 127}); // an IPv4 reply stopped inside its address
      c.out().flush();
    }, "it closed the connection before the tunnel was open");
  }

  /** RFC 1929: the proxy picks username/password, then its status reply stops after the version byte. */
  @Test
  void aPasswordReplyCutShort() throws Exception {
    try (HostilePeer proxy = new HostilePeer(c -> {
          byte[] head = c.in().readNBytes(2);
          c.in().readNBytes(head[1]);
          c.out().write(new byte[] {5, 2}); // username/password
          c.out().flush();
          byte[] ver = c.in().readNBytes(2); // VER ULEN
          c.in().readNBytes(ver[1]);
          c.in().readNBytes(c.in().read()); // PLEN PASSWD
          c.out().write(1); // the sub-negotiation's version, then the close: no status
          c.out().flush();
        });
        Client client = Client.builder().proxy(Proxy.socks5("socks5://u:p@127.0.0.1:" + proxy.port()))
            .timeout(Timeout.DEFAULT.withConnect(CONNECT)).build()) {
      long start = System.nanoTime();
      ConnectException e = assertThrows(ConnectException.class, () -> client.get("http://origin.test:8080/x"));
      assertEquals(ConnectException.class, e.getClass(), e.toString());
      assertTrue((System.nanoTime() - start) / 1_000_000 < CONNECT.toMillis(), e.toString());
      assertTrue(e.getMessage().contains("127.0.0.1:" + proxy.port()) && e.getMessage().contains("origin.test:8080")
          && e.getMessage().contains("closed the connection before the tunnel was open"), e.getMessage());
      ClientStats stats = client.stats();
      assertEquals(0, stats.open() + stats.idle() + stats.inUse() + stats.pending(), stats.toString());
    }
  }

  @Test
  void aConnectRefusedByTheProxy() throws Exception {
    tunnelFails(ConnectException.class, c -> {
      greet(c.in(), c.out());
      c.in().readNBytes(5 + "origin.test".length() + 2);
      c.out().write(new byte[] {5, 5, 0, 1, 0, 0, 0, 0, 0, 0}); // REP 5: connection refused
      c.out().flush();
      c.in().read();
    }, "failed to open a tunnel to origin.test:8080: CONNECTION_REFUSED(5)");
  }

  @Test
  void aProxyThatNeverRepliesTimesOutAtTheConnectTimeout() throws Exception {
    tunnelFails(ConnectTimeoutException.class, c -> {
      c.in().readNBytes(3);
      c.in().read(); // silent until the client gives up
    }, "timed out after 2.0 s");
  }
}
