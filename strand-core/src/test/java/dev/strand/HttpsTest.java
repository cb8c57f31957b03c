package dev.strand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.internal.tls.TlsContexts;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServer;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * HTTPS through the Client, on both TLS engines, against the loopback testkit server: mostly one that
 * speaks only HTTP/1.1, which the default policy (h2 offered by ALPN) falls back to.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
public class HttpsTest {
  static Stream<Tls.Engine> engines() {
    return TlsContexts.openSslAvailable() ? Stream.of(Tls.Engine.JDK, Tls.Engine.OPENSSL) : Stream.of(Tls.Engine.JDK);
  }

  public static TestServer tlsServer(boolean http2) {
    var pki = SharedTestPki.get();
    return TestServer.builder().tls(pki.server().cert(), pki.server().key()).http2(http2).build();
  }

  @ParameterizedTest
  @MethodSource("engines")
  void getAndPostOverTlsReuseOneConnection(Tls.Engine engine) {
    try (TestServer server = tlsServer(false);
        Client client = Client.builder().tls(SharedTestPki.trustTestCa(engine)).build()) {
      for (int i = 0; i < 5; i++) {
        Response r = client.get(server.url("/small"));
        assertEquals(200, r.status());
        assertEquals(Version.HTTP_1_1, r.version(), "the server picks no h2, so the default falls back");
        assertArrayEquals(Payloads.SMALL, r.bytes());
      }
      byte[] upload = Payloads.bytes(300_000);
      Response echo = client.post(server.url("/sink"), RequestBody.of(upload));
      assertTrue(echo.text().contains("\"bytes\": 300000"), echo.text());
      assertArrayEquals(Payloads.bytes(1_000_000), client.get(server.url("/bytes/1000000")).bytes());
      assertEquals(1, server.tlsHandshakes(), "keep-alive over TLS: one handshake");
      assertEquals(engine == Tls.Engine.JDK ? "jdk" : "openssl", client.stats().tlsEngine());
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void responsesCarryTheirTlsSessionOnBothProtocols(Tls.Engine engine) throws Exception {
    try (TestServer server = tlsServer(true);
        TestServer cleartext = TestServer.start();
        Client h1 = Client.builder().tls(SharedTestPki.trustTestCa(engine)).version(VersionPolicy.HTTP_1_1).build();
        Client h2 = Client.builder().tls(SharedTestPki.trustTestCa(engine)).version(VersionPolicy.HTTP_2).build()) {
      for (Client client : new Client[] {h1, h2}) {
        Response r = client.get(server.url("/small"));
        javax.net.ssl.SSLSession session = r.sslSession().orElseThrow();
        assertTrue(session.getProtocol().startsWith("TLSv1."), session.getProtocol());
        assertTrue(session.getCipherSuite().startsWith("TLS_"), session.getCipherSuite());
        var leaf = (java.security.cert.X509Certificate) session.getPeerCertificates()[0];
        assertEquals(SharedTestPki.get().server().certificate(), leaf, "the server's own certificate");
        try (StreamingResponse s = client.stream(Request.get(server.url("/small")))) {
          assertEquals(session.getCipherSuite(), s.sslSession().orElseThrow().getCipherSuite());
        }
        assertTrue(client.get(cleartext.url("/small")).sslSession().isEmpty(), "cleartext has no session");
      }
      assertEquals(Version.HTTP_2, h2.get(server.url("/small")).version());
      assertEquals(Version.HTTP_1_1, h1.get(server.url("/small")).version());
    }
  }

  @Test
  void localhostNameIsVerifiedAndSniSent() {
    try (TestServer server = tlsServer(false);
        Client client = Client.builder().tls(SharedTestPki.trustTestCa(Tls.Engine.JDK)).build()) {
      Response r = client.get("https://localhost:" + server.port() + "/small");
      assertEquals(200, r.status());
    }
  }

  @Test
  void trailersOfAChunkedHttp1Body() {
    try (TestServer server = tlsServer(false);
        Client client = Client.builder().tls(SharedTestPki.trustTestCa(Tls.Engine.AUTO)).build()) {
      Response r = client.get(server.url("/trailers"));
      assertEquals(1024, r.bytes().length);
      assertEquals(64, r.trailers().first("x-checksum").length(), r.trailers().toString());
      assertEquals(Headers.EMPTY, client.get(server.url("/small")).trailers());
    }
  }

  @Test
  void aMissingTrustFileFailsAtBuildTime() {
    Tls tls = Tls.builder().trustPem(Path.of("/nonexistent/ca.pem")).build();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Client.builder().tls(tls).build());
    assertTrue(e.getMessage().contains("/nonexistent/ca.pem"), e.getMessage());
  }

  @Test
  void defaultTransportReportsNoTlsEngineUntilHttpsIsUsed() {
    try (Client client = Client.create()) {
      assertEquals("none", client.stats().tlsEngine());
    }
  }
}
