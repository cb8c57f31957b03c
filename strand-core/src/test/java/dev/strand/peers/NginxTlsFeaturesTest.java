package dev.strand.peers;

import static dev.strand.peers.Peers.env;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.EventListener;
import dev.strand.Response;
import dev.strand.Tls;
import dev.strand.TlsException;
import dev.strand.internal.tls.Pins;
import dev.strand.internal.tls.TlsContexts;
import dev.strand.testkit.NettyLeakDetectorExtension;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import javax.net.ssl.SSLSession;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Session resumption, pinning and client certificates against nginx (bin/test's TLS peer), on
 * both engines. nginx's own {@code $ssl_session_reused} says whether a connection resumed.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
@Tag("peer")
class NginxTlsFeaturesTest {
  static Stream<Tls.Engine> engines() {
    return TlsContexts.openSslAvailable() ? Stream.of(Tls.Engine.JDK, Tls.Engine.OPENSSL) : Stream.of(Tls.Engine.JDK);
  }

  private static Path pki(String file) {
    return Path.of(env("STRAND_TLS_CA")).resolveSibling(file);
  }

  private static Tls trusting(Tls.Engine engine) {
    return Tls.builder().trustSystem(false).trustPem(Path.of(env("STRAND_TLS_CA"))).engine(engine).build();
  }

  private static Response get(Tls tls, EventListener events, String url) {
    // A client per call: its connection is closed before the next, which must open a new one.
    try (Client client = Client.builder().tls(tls).eventListener(events).build()) {
      return client.get(url);
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void aSecondConnectionResumesTheSession(Tls.Engine engine) {
    String url = env("STRAND_NGINX_TLS_URL") + "/tls/session-reused";
    List<Boolean> resumed = new CopyOnWriteArrayList<>();
    EventListener events = new EventListener() {
      private volatile boolean pending;

      @Override
      public void tlsResumed(Call call, long nanos, SSLSession session) {
        pending = true;
      }

      @Override
      public void tlsEnd(Call call, long nanos, SSLSession session, String alpn) {
        resumed.add(pending);
        pending = false;
      }
    };
    Tls tls = trusting(engine);
    assertEquals(".", get(tls, events, url).text().trim(), "nginx: the first handshake is a full one");
    Response second = get(tls, events, url);
    assertEquals("r", second.text().trim(), "nginx: the second connection resumed");
    assertEquals("r", second.headers().first("X-Session-Reused"));
    assertEquals(List.of(false, true), resumed, "tlsResumed agrees with nginx");
  }

  @ParameterizedTest
  @MethodSource("engines")
  void twoNamesNginxServesWithOneCertificateShareOneHttp2Connection(Tls.Engine engine) throws Exception {
    java.net.URI base = java.net.URI.create(env("STRAND_NGINX_TLS_URL"));
    java.net.InetAddress at = java.net.InetAddress.getByName(base.getHost());
    dev.strand.Dns dns = dev.strand.Dns.overrides(java.util.Map.of("api.strand.test", List.of(at),
        "www.shared.strand.test", List.of(at)), dev.strand.Dns.system());
    try (Client client = Client.builder().transport(dev.strand.NettyTransport.builder().tls(trusting(engine))
        .dns(dns).build()).build()) {
      for (String host : List.of("api.strand.test", "www.shared.strand.test")) {
        Response r = client.get("https://" + host + ":" + base.getPort() + "/small.json");
        assertEquals(200, r.status());
        assertEquals(dev.strand.Version.HTTP_2, r.version());
      }
      assertEquals(1, client.stats().connectionsOpened(), "the second name rode the first one's connection");
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void theRightPinPassesAndAWrongOneFails(Tls.Engine engine) throws Exception {
    String url = env("STRAND_NGINX_TLS_URL") + "/tls/session-reused";
    String caPin = Pins.pinOf(dev.strand.internal.tls.Pem.readCertificates(Path.of(env("STRAND_TLS_CA"))).get(0));
    String serverPin = Pins.pinOf(dev.strand.internal.tls.Pem.readCertificates(pki("server.pem")).get(0));
    String wrongPin = Pins.pinOf(dev.strand.internal.tls.Pem.readCertificates(pki("self-signed.pem")).get(0));
    EventListener none = new EventListener() {};
    assertEquals(200, get(trusting(engine).toBuilder().pin("127.0.0.1", serverPin).build(), none, url).status());
    assertEquals(200, get(trusting(engine).toBuilder().pin("**", wrongPin, caPin).build(), none, url).status());
    TlsException e = assertThrows(TlsException.class,
        () -> get(trusting(engine).toBuilder().pin("127.0.0.1", wrongPin).build(), none, url));
    assertEquals(TlsException.Reason.PIN_MISMATCH, e.reason(), e.getMessage());
    assertTrue(e.getMessage().contains(serverPin) && e.getMessage().contains(wrongPin), e.getMessage());
  }

  @ParameterizedTest
  @MethodSource("engines")
  void mutualTlsNeedsTheClientCertificate(Tls.Engine engine) {
    String url = env("STRAND_NGINX_MTLS_URL") + "/";
    EventListener none = new EventListener() {};
    // nginx finishes the handshake without a certificate and refuses the request instead.
    assertEquals(400, get(trusting(engine), none, url).status());
    Tls withCert = trusting(engine).toBuilder().clientCertificate(pki("client.pem"), pki("client.key")).build();
    Response r = get(withCert, none, url);
    assertEquals(200, r.status());
    assertEquals("CN=strand-client", r.text().trim());
    Tls withP12 = trusting(engine).toBuilder().clientPkcs12(pki("client.p12"), "changeit".toCharArray()).build();
    assertEquals(200, get(withP12, none, url).status());
  }
}
