package dev.strand.peers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.ConnectException;
import dev.strand.HttpsTest;
import dev.strand.Proxy;
import dev.strand.ProxyAuthenticator;
import dev.strand.Response;
import dev.strand.SharedTestPki;
import dev.strand.Tls;
import dev.strand.TlsException;
import dev.strand.Version;
import dev.strand.VersionPolicy;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServer;
import java.nio.file.Path;
import javax.security.auth.Subject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Through the proxies enterprises run, which bin/test starts (.ci/proxy/enterprise.sh): squid asking
 * for Digest, on an {@code http_port} and an {@code https_port}; squid asking for Negotiate, against an
 * MIT KDC with the realm STRAND.TEST; tinyproxy behind stunnel. The proxies' certificates come from
 * bin/test's PKI ({@code STRAND_TLS_CA}), the servers' from the testkit's: two trust settings.
 * Skipped when they are not configured, except on CI, where that is an error.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
@Tag("peer")
class EnterpriseProxyPeersTest {
  private static TestServer http;
  private static TestServer https;

  @BeforeAll
  static void start() {
    http = TestServer.start();
    https = HttpsTest.tlsServer(true);
  }

  @AfterAll
  static void stop() {
    http.close();
    https.close();
  }

  private static Client client(Proxy proxy) {
    return Client.builder().proxy(proxy).version(VersionPolicy.HTTP_2).tls(SharedTestPki.trustTestCa(Tls.Engine.JDK)).build();
  }

  private static Tls proxyCa() {
    return Tls.builder().trustSystem(false).trustPem(Path.of(Peers.env("STRAND_TLS_CA"))).build();
  }

  /** An https origin through the tunnel, HTTP/2 inside it; an http one forwarded; both twice. */
  private static void bothWays(Client client) {
    for (int i = 0; i < 2; i++) {
      Response tunnelled = client.get("https://localhost:" + https.port() + "/small");
      assertEquals(200, tunnelled.status());
      assertEquals(Version.HTTP_2, tunnelled.version());
      assertArrayEquals(Payloads.SMALL, tunnelled.bytes());
      Response forwarded = client.get(http.url("/small?i=" + i));
      assertEquals(200, forwarded.status(), forwarded.toString());
      assertArrayEquals(Payloads.SMALL, forwarded.bytes());
    }
    assertEquals(0, client.stats().inUse());
  }

  @Test
  void squidDigest() {
    String url = Peers.env("STRAND_SQUID_DIGEST_URL");
    try (Client client = client(Proxy.http(url).withAuthenticator(ProxyAuthenticator.digest("user", "pass word")))) {
      bothWays(client);
    }
    try (Client wrong = client(Proxy.http(url).withAuthenticator(ProxyAuthenticator.digest("user", "wrong")))) {
      ConnectException e = assertThrows(ConnectException.class, () -> wrong.get("https://localhost:" + https.port() + "/"));
      assertTrue(e.getMessage().contains("407"), e.getMessage());
      assertEquals(407, wrong.get(http.url("/small")).status(), "a forwarded request's refusal is a response");
      assertEquals(0, wrong.stats().inUse());
    }
  }

  @Test
  void squidOverTlsWithItsOwnTrust() {
    String url = Peers.env("STRAND_SQUID_HTTPS_URL");
    try (Client client = client(Proxy.http(url).withTls(proxyCa())
        .withAuthenticator(ProxyAuthenticator.digest("user", "pass word")))) {
      bothWays(client);
    }
    // The servers' trust settings do not cover the proxy's certificate.
    try (Client untrusted = client(Proxy.http(url).withAuthenticator(ProxyAuthenticator.digest("user", "pass word")))) {
      TlsException e = assertThrows(TlsException.class, () -> untrusted.get("https://localhost:" + https.port() + "/"));
      assertTrue(e.getMessage().contains(URIs.authority(url)), e.getMessage());
    }
  }

  @Test
  void squidNegotiateWithKerberos() throws Exception {
    String url = Peers.env("STRAND_SQUID_NEGOTIATE_URL");
    Kerberos.useTestRealm();
    Subject alice = Kerberos.login(Peers.env("STRAND_KRB5_PRINCIPAL"), Peers.env("STRAND_KRB5_PASSWORD"));
    try (Client client = client(Proxy.http(url).withAuthenticator(ProxyAuthenticator.negotiate(alice)))) {
      bothWays(client);
    }
    try (Client noTicket = client(Proxy.http(url).withAuthenticator(ProxyAuthenticator.digest("user", "pass word")))) {
      ConnectException e = assertThrows(ConnectException.class,
          () -> noTicket.get("https://localhost:" + https.port() + "/"));
      assertTrue(e.getMessage().contains("407"), e.getMessage());
    }
  }

  @Test
  void tinyproxyBehindStunnel() {
    String url = Peers.env("STRAND_STUNNEL_PROXY_URL");
    try (Client client = client(Proxy.http(url).withTls(proxyCa()))) {
      bothWays(client);
    }
  }

  /** {@code host:port} of a URL, as messages name it. */
  private static final class URIs {
    static String authority(String url) {
      return java.net.URI.create(url).getHost() + ":" + java.net.URI.create(url).getPort();
    }
  }
}
