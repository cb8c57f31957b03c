package dev.strand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServer;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Proxies that challenge ({@link AuthProxy}): a {@code 407} to {@code CONNECT} answered on the same
 * connection or, when the proxy closes it, on a new one; the nonce reused on later tunnels; a forwarded
 * request's {@code 407} answered once; and TLS to the proxy itself.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class ProxyAuthTest {
  private static final String USER = "user";
  private static final String PASSWORD = "pass word";

  /** Lets a request through only with a valid Digest answer; else 407 with nonce {@code n<count>}. */
  private static AuthProxy.Policy digest(boolean close, AtomicInteger nonces) {
    return (connection, head) -> {
      String method = head.substring(0, head.indexOf(' '));
      if (AuthProxy.validDigest(AuthProxy.header(head, "Proxy-Authorization"), method, USER, PASSWORD)) {
        return null;
      }
      return "HTTP/1.1 407 Proxy Authentication Required\r\n"
          + "Proxy-Authenticate: Basic realm=\"squid\"\r\n"
          + "Proxy-Authenticate: Digest realm=\"squid\", nonce=\"n" + nonces.incrementAndGet() + "\", qop=\"auth\"\r\n"
          + (close ? "Connection: close\r\n" : "") + "Content-Length: 6\r\n\r\ndenied";
    };
  }

  private static Client client(Proxy proxy) {
    return Client.builder().tls(SharedTestPki.trustTestCa(Tls.Engine.JDK)).proxy(proxy).build();
  }

  @Test
  void digestIsAnsweredOnTheSameConnectionAndItsNonceReusedOnTheNextTunnel() throws Exception {
    try (TestServer server = HttpsTest.tlsServer(false);
        AuthProxy proxy = AuthProxy.start(digest(false, new AtomicInteger()));
        Client client = client(Proxy.http("http://127.0.0.1:" + proxy.port())
            .withAuthenticator(ProxyAuthenticator.digest(USER, PASSWORD)))) {
      assertArrayEquals(Payloads.SMALL, client.get("https://localhost:" + server.port() + "/small").bytes());
      assertEquals(2, proxy.seen.size(), proxy.seen.toString());
      assertNull(proxy.seen.get(0).proxyAuthorization(), "Digest is not sent before a challenge");
      assertEquals(1, proxy.seen.get(1).connection(), "the challenge is answered on the same connection");
      assertEquals(1, proxy.accepted());
      // Another origin, another tunnel: the proxy's nonce is reused at once (nc=2), no second challenge.
      assertEquals(200, client.get(server.url("/small")).status());
      assertEquals(3, proxy.seen.size(), proxy.seen.toString());
      assertTrue(proxy.seen.get(2).proxyAuthorization().contains("nc=00000002"), proxy.seen.toString());
      assertEquals(0, client.stats().inUse());
    }
  }

  @Test
  void aChallengeOnAClosingConnectionIsAnsweredOnANewOne() throws Exception {
    try (TestServer server = HttpsTest.tlsServer(false);
        AuthProxy proxy = AuthProxy.start(digest(true, new AtomicInteger()));
        Client client = client(Proxy.http("http://127.0.0.1:" + proxy.port())
            .withAuthenticator(ProxyAuthenticator.digest(USER, PASSWORD)))) {
      assertArrayEquals(Payloads.SMALL, client.get("https://localhost:" + server.port() + "/small").bytes());
      assertEquals(2, proxy.accepted(), "the answer goes on a second connection");
      assertEquals(List.of(1, 2), proxy.seen.stream().map(AuthProxy.Seen::connection).toList());
    }
  }

  /** A 407 whose body runs to the end of the connection (no length): answered on a new connection. */
  @Test
  void aChallengeWithABodyUntilCloseIsAnsweredOnANewConnection() throws Exception {
    java.util.List<String> heads = new java.util.concurrent.CopyOnWriteArrayList<>();
    ProxyAuthenticator onlyWhenAsked = (proxy, method, target, challenges) ->
        challenges.isEmpty() ? null : "Custom " + challenges.get(0).length();
    try (dev.strand.testkit.HostilePeer proxy = new dev.strand.testkit.HostilePeer(c -> {
          heads.add(c.readHead());
          if (heads.size() == 1) {
            c.write("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Custom realm=\"x\"\r\n\r\ndenied");
          } else {
            c.write("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
          }
        });
        Client client = client(Proxy.http("http://127.0.0.1:" + proxy.port()).withAuthenticator(onlyWhenAsked))) {
      ConnectException e = assertThrows(ConnectException.class, () -> client.get("https://localhost:1/x"));
      assertTrue(e.getMessage().contains("403 Forbidden"), e.getMessage());
      assertEquals(2, heads.size(), heads.toString());
      assertEquals("Custom 16", AuthProxy.header(heads.get(1), "Proxy-Authorization"));
      assertEquals(0, client.stats().open());
    }
  }

  @Test
  void wrongCredentialsFailTheTunnelWithTheStatusAfterOneAnswer() throws Exception {
    try (AuthProxy proxy = AuthProxy.start(digest(false, new AtomicInteger()));
        Client client = client(Proxy.http("http://127.0.0.1:" + proxy.port())
            .withAuthenticator(ProxyAuthenticator.digest(USER, "wrong")))) {
      ConnectException e = assertThrows(ConnectException.class, () -> client.get("https://localhost:1/x"));
      assertTrue(e.getMessage().startsWith("proxy 127.0.0.1:" + proxy.port()
          + " refused the tunnel to localhost:1: 407 Proxy Authentication Required"), e.getMessage());
      // Each challenge has a fresh nonce, so each is answered: until the bound.
      assertEquals(5, proxy.seen.size(), proxy.seen.toString());
      assertEquals(0, client.stats().open());
    }
  }

  @Test
  void aForwardedRequestsChallengeIsAnsweredOnce() throws Exception {
    try (AuthProxy proxy = AuthProxy.start(digest(false, new AtomicInteger()));
        Client client = client(Proxy.http("http://127.0.0.1:" + proxy.port())
            .withAuthenticator(ProxyAuthenticator.digest(USER, PASSWORD)))) {
      Response r = client.get("http://example.test/path?q=1");
      assertEquals(200, r.status());
      assertEquals("ok", r.text());
      assertEquals(2, proxy.seen.size(), proxy.seen.toString());
      assertTrue(proxy.seen.get(1).proxyAuthorization().contains("uri=\"http://example.test/path?q=1\""),
          proxy.seen.toString());
    }
  }

  @Test
  void aForwardedRequestsChallengeWithoutAnAuthenticatorIsTheResponse() throws Exception {
    try (AuthProxy proxy = AuthProxy.start(digest(false, new AtomicInteger()));
        Client client = client(Proxy.http("http://127.0.0.1:" + proxy.port()))) {
      assertEquals(407, client.get("http://example.test/").status());
      assertEquals(1, proxy.seen.size());
    }
  }

  @Test
  void anHttpsProxyRunsTlsToTheProxyAndTlsToTheServerInsideIt() throws Exception {
    AuthProxy.Policy basic = (connection, head) -> ("Basic " + java.util.Base64.getEncoder()
        .encodeToString("u:p".getBytes())).equals(AuthProxy.header(head, "Proxy-Authorization")) ? null
        : "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"x\"\r\nContent-Length: 0\r\n\r\n";
    try (TestServer server = HttpsTest.tlsServer(false);
        AuthProxy proxy = AuthProxy.startTls(basic);
        Client client = client(Proxy.http("https://u:p@localhost:" + proxy.port())
            .withTls(SharedTestPki.trustTestCa(Tls.Engine.JDK)))) {
      assertArrayEquals(Payloads.SMALL, client.get("https://localhost:" + server.port() + "/small").bytes());
      assertEquals("CONNECT localhost:" + server.port() + " HTTP/1.1", proxy.seen.get(0).requestLine());
      assertEquals(1, server.tlsHandshakes());
      Response forwarded = client.get("http://example.test/over-tls");
      assertEquals("ok", forwarded.text());
      assertEquals("GET http://example.test/over-tls HTTP/1.1", proxy.seen.get(1).requestLine());
      assertEquals(2, proxy.accepted());
    }
  }

  @Test
  void anHttpsProxyIsCheckedAgainstItsOwnTrustSettings() throws Exception {
    try (AuthProxy proxy = AuthProxy.startTls((c, h) -> null);
        // The servers' trust (the test CA) does not cover the proxy: its own (the system's) applies.
        Client client = client(Proxy.http("https://localhost:" + proxy.port()))) {
      TlsException e = assertThrows(TlsException.class, () -> client.get("https://localhost:1/x"));
      assertTrue(e.getMessage().contains("localhost:" + proxy.port()), e.getMessage());
      assertTrue(proxy.seen.isEmpty());
      TlsException forwarded = assertThrows(TlsException.class, () -> client.get("http://example.test/"));
      assertTrue(forwarded.getMessage().contains("localhost:" + proxy.port()), forwarded.getMessage());
      assertEquals(0, client.stats().open());
    }
    try (AuthProxy proxy = AuthProxy.startTls((c, h) -> null);
        Client insecure = client(Proxy.http("https://localhost:" + proxy.port()).withTls(Tls.insecure()))) {
      assertEquals("ok", insecure.get("http://example.test/").text());
    }
  }
}
