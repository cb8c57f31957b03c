package dev.strand.peers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.ConnectException;
import dev.strand.HttpsTest;
import dev.strand.Proxy;
import dev.strand.RequestBody;
import dev.strand.Response;
import dev.strand.SharedTestPki;
import dev.strand.Tls;
import dev.strand.Version;
import dev.strand.VersionPolicy;
import dev.strand.WebSocketRecorder;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServer;
import java.net.URI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Through real proxies that bin/test starts: tinyproxy (open, and with {@code BasicAuth user pass})
 * and microsocks (SOCKS5, open and with {@code user}/{@code pass}), to the loopback testkit servers;
 * WebSockets too, through a tunnel.
 * Skipped when they are not configured, except on CI, where that is an error.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
@Tag("peer")
class ProxyPeersTest {
  private static TestServer http;
  private static TestServer https;
  private static TestServer h2;

  @BeforeAll
  static void start() {
    http = TestServer.start();
    https = HttpsTest.tlsServer(false);
    h2 = HttpsTest.tlsServer(true);
  }

  @AfterAll
  static void stop() {
    http.close();
    https.close();
    h2.close();
  }

  private static Client client(Proxy proxy, VersionPolicy version) {
    return Client.builder().proxy(proxy).version(version).tls(SharedTestPki.trustTestCa(Tls.Engine.JDK)).build();
  }

  /** The URL with credentials added. */
  private static String withUser(String url, String user, String password) {
    URI u = URI.create(url);
    return u.getScheme() + "://" + user + ":" + password + "@" + u.getAuthority();
  }

  @Test
  void httpThroughTinyproxyIsForwardedWithVia() {
    try (Client client = client(Proxy.http(Peers.env("STRAND_TINYPROXY_URL")), VersionPolicy.HTTP_1_1)) {
      byte[] upload = Payloads.bytes(200_000);
      assertTrue(client.post(http.url("/sink"), RequestBody.of(upload)).text().contains("\"bytes\": 200000"));
      // tinyproxy closes each client connection after one response (without saying so), so there is
      // no reuse to see here (ProxyTest shows it against TestProxy): a GET finding its idle connection
      // closed is sent again on a new one. A POST would not be, hence it went first.
      for (int i = 0; i < 10; i++) {
        String headers = client.get(http.url("/headers")).text();
        assertTrue(headers.contains("tinyproxy"), "the Via header tinyproxy adds: " + headers);
      }
    }
  }

  @Test
  void httpsAndHttp2ThroughTinyproxyTunnel() {
    try (Client h1 = client(Proxy.http(Peers.env("STRAND_TINYPROXY_URL")), VersionPolicy.HTTP_1_1);
        Client h2c = client(Proxy.http(Peers.env("STRAND_TINYPROXY_URL")), VersionPolicy.HTTP_2)) {
      for (int i = 0; i < 5; i++) {
        Response r = h1.get("https://localhost:" + https.port() + "/small");
        assertArrayEquals(Payloads.SMALL, r.bytes());
      }
      assertEquals(1, h1.stats().connectionsOpened(), "one tunnel carries the five requests");
      assertArrayEquals(Payloads.bytes(1_000_000), h1.get("https://localhost:" + https.port() + "/bytes/1000000").bytes());
      Response r = h2c.get("https://localhost:" + h2.port() + "/small");
      assertEquals(Version.HTTP_2, r.version());
      assertArrayEquals(Payloads.SMALL, r.bytes());
    }
  }

  @Test
  void tinyproxyBasicAuth() {
    String url = Peers.env("STRAND_TINYPROXY_AUTH_URL");
    try (Client right = client(Proxy.http(withUser(url, "user", "pass")), VersionPolicy.HTTP_1_1);
        Client wrong = client(Proxy.http(withUser(url, "user", "nope")), VersionPolicy.HTTP_1_1);
        Client none = client(Proxy.http(url), VersionPolicy.HTTP_1_1)) {
      assertTrue(right.get(http.url("/headers")).text().contains("tinyproxy"));
      assertArrayEquals(Payloads.SMALL, right.get("https://localhost:" + https.port() + "/small").bytes());
      for (Client c : new Client[] {wrong, none}) {
        // An answer, not an exception. tinyproxy 1.11 says 401 here (407 only to CONNECT).
        int status = c.get(http.url("/headers")).status();
        assertTrue(status == 401 || status == 407, "status " + status);
        ConnectException e = assertThrows(ConnectException.class, () -> c.get("https://localhost:" + https.port() + "/small"));
        // tinyproxy 1.11 answers CONNECT without credentials with 401, where RFC 9110 says 407.
        assertTrue(e.getMessage().matches(".*refused the tunnel to localhost:" + https.port() + ": 40[17] .*"), e.getMessage());
      }
    }
  }

  @Test
  void socks5TunnelsHttpAndHttps() {
    try (Client client = client(Proxy.socks5(Peers.env("STRAND_SOCKS5_URL")), VersionPolicy.HTTP_2)) {
      assertArrayEquals(Payloads.SMALL, client.get("http://localhost:" + http.port() + "/small").bytes());
      Response r = client.get("https://localhost:" + h2.port() + "/small");
      assertEquals(Version.HTTP_2, r.version());
      assertArrayEquals(Payloads.SMALL, r.bytes());
    }
  }

  @Test
  void socks5Auth() {
    String url = Peers.env("STRAND_SOCKS5_AUTH_URL");
    try (Client right = client(Proxy.socks5(withUser(url, "user", "pass")), VersionPolicy.HTTP_1_1);
        Client wrong = client(Proxy.socks5(withUser(url, "user", "nope")), VersionPolicy.HTTP_1_1)) {
      assertArrayEquals(Payloads.SMALL, right.get("https://localhost:" + https.port() + "/small").bytes());
      ConnectException e = assertThrows(ConnectException.class, () -> wrong.get(http.url("/small")));
      assertTrue(e.getMessage().startsWith("proxy 127.0.0.1:" + URI.create(url).getPort() + " failed to open a tunnel"),
          e.getMessage());
    }
  }

  @Test
  void webSocketsThroughTinyproxyTunnel() throws Exception {
    String url = Peers.env("STRAND_TINYPROXY_AUTH_URL");
    webSocketsThrough(Proxy.http(withUser(url, "user", "pass")), Proxy.http(withUser(url, "user", "nope")));
  }

  @Test
  void webSocketsThroughSocks5() throws Exception {
    String url = Peers.env("STRAND_SOCKS5_AUTH_URL");
    webSocketsThrough(Proxy.socks5(withUser(url, "user", "pass")), Proxy.socks5(withUser(url, "user", "nope")));
  }

  /**
   * ws:// and wss:// (to localhost, a name the proxy resolves) echo and close cleanly through {@code right},
   * and fail to connect through {@code wrong} (its credentials are refused), so they did not go direct.
   */
  private static void webSocketsThrough(Proxy right, Proxy wrong) throws Exception {
    try (Client client = client(right, VersionPolicy.HTTP_2); Client refused = client(wrong, VersionPolicy.HTTP_2)) {
      for (String url : new String[] {"ws://localhost:" + http.port() + "/ws/echo?deflate=1",
          "wss://localhost:" + h2.port() + "/ws/echo"}) {
        WebSocketRecorder rec = new WebSocketRecorder();
        rec.echoAndClose(client.websocket(url, rec), url);
        assertThrows(ConnectException.class, () -> refused.websocket(url, new WebSocketRecorder()), url);
      }
    }
  }
}
