package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import dev.strand.testkit.tls.TestPki;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Each TLS failure through the Client, end to end: the right {@link TlsException} reason and a message that says why. */
@ExtendWith(NettyLeakDetectorExtension.class)
class TlsFailuresTest {
  static java.util.stream.Stream<Tls.Engine> engines() {
    return HttpsTest.engines();
  }

  private static TlsException failure(TestServer server, Tls tls, String host) {
    try (Client client = Client.builder().tls(tls).build()) {
      return assertThrows(TlsException.class, () -> client.get("https://" + host + ":" + server.port() + "/small"));
    }
  }

  private static TestServer serve(TestPki.Identity id) {
    return TestServer.builder().tls(id.cert(), id.key()).build();
  }

  @ParameterizedTest
  @MethodSource("engines")
  void wrongHostName(Tls.Engine engine) {
    try (TestServer server = serve(SharedTestPki.get().wrongHost())) {
      TlsException e = failure(server, SharedTestPki.trustTestCa(engine), "127.0.0.1");
      assertEquals(TlsException.Reason.HOSTNAME_MISMATCH, e.reason(), e.getMessage());
      assertTrue(e.getMessage().contains("wrong.example"), e.getMessage());
      assertTrue(e.getMessage().contains("127.0.0.1"), e.getMessage());
      assertTrue(e.request() != null && e.request().url().toString().endsWith("/small"));
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void expiredCertificate(Tls.Engine engine) {
    try (TestServer server = serve(SharedTestPki.get().expired())) {
      TlsException e = failure(server, SharedTestPki.trustTestCa(engine), "localhost");
      assertEquals(TlsException.Reason.EXPIRED, e.reason(), e.getMessage());
      assertTrue(e.getMessage().contains("expired"), e.getMessage());
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void selfSignedWithoutTrust(Tls.Engine engine) {
    try (TestServer server = serve(SharedTestPki.get().selfSigned())) {
      TlsException e = failure(server, SharedTestPki.trustTestCa(engine), "localhost");
      assertEquals(TlsException.Reason.UNKNOWN_CA, e.reason(), e.getMessage());
      assertTrue(e.getMessage().contains("self-signed"), e.getMessage());
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void clientCertificateRequiredButMissing(Tls.Engine engine) {
    TestPki pki = SharedTestPki.get();
    try (TestServer server = TestServer.builder().tls(pki.server().cert(), pki.server().key())
        .requireClientAuth(pki.clientCa().cert()).build()) {
      TlsException e = failure(server, SharedTestPki.trustTestCa(engine), "localhost");
      assertEquals(TlsException.Reason.CLIENT_CERT_REQUIRED, e.reason(), e.getMessage());
      assertTrue(e.getMessage().contains("clientCertificate"), e.getMessage());

      Tls withCert = SharedTestPki.trustTestCa(engine).toBuilder()
          .clientCertificate(pki.client().cert(), pki.client().key()).build();
      try (Client client = Client.builder().tls(withCert).build()) {
        assertEquals(200, client.get("https://localhost:" + server.port() + "/small").status(), "with a certificate it works");
      }
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void plainHttpServerOnAnHttpsUrl(Tls.Engine engine) {
    try (TestServer server = TestServer.start()) {
      TlsException e = failure(server, SharedTestPki.trustTestCa(engine), "127.0.0.1");
      assertEquals(TlsException.Reason.PROTOCOL, e.reason(), e.getMessage());
    }
  }
}
