package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.internal.tls.Pins;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import dev.strand.testkit.tls.TestPki;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Public-key pinning end to end, on both engines, against the testkit's TLS server: its key pinned
 * passes, another key pinned (the self-signed identity's) fails with {@code PIN_MISMATCH}.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class CertificatePinningTest {
  static java.util.stream.Stream<Tls.Engine> engines() {
    return HttpsTest.engines();
  }

  private static final TestPki PKI = SharedTestPki.get();
  private static final String SERVER_PIN = Pins.pinOf(PKI.server().certificate());
  private static final String CA_PIN = Pins.pinOf(PKI.ca().certificate());
  private static final String OTHER_PIN = Pins.pinOf(PKI.selfSigned().certificate());

  private static int get(TestServer server, Tls tls) {
    try (Client client = Client.builder().tls(tls).build()) {
      return client.get("https://localhost:" + server.port() + "/small").status();
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void theLeafsOrTheRootsKeyPinnedPasses(Tls.Engine engine) {
    try (TestServer server = HttpsTest.tlsServer(false)) {
      Tls base = SharedTestPki.trustTestCa(engine);
      assertEquals(200, get(server, base.toBuilder().pin("localhost", OTHER_PIN, SERVER_PIN).build()));
      assertEquals(200, get(server, base.toBuilder().pin("**", CA_PIN).build()), "the root, which the server does not send");
      assertEquals(200, get(server, base.toBuilder().pin("other.example", OTHER_PIN).build()), "no pin for this host");
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void anotherKeyPinnedFailsTheHandshake(Tls.Engine engine) {
    try (TestServer server = HttpsTest.tlsServer(false)) {
      Tls pinned = SharedTestPki.trustTestCa(engine).toBuilder().pin("*.localhost", SERVER_PIN)
          .pin("**.localhost", OTHER_PIN).build();
      TlsException e = assertThrows(TlsException.class, () -> get(server, pinned));
      assertEquals(TlsException.Reason.PIN_MISMATCH, e.reason(), e.getMessage());
      assertTrue(e.getMessage().contains("localhost"), e.getMessage());
      assertTrue(e.getMessage().contains(OTHER_PIN), "the expected pin: " + e.getMessage());
      assertTrue(e.getMessage().contains(SERVER_PIN), "the chain's actual pin: " + e.getMessage());
      assertTrue(!e.getMessage().contains("[" + SERVER_PIN + "]"), "*.localhost does not cover localhost");
    }
  }

  @org.junit.jupiter.api.Test
  void pinsAndAnSslContextExcludeEachOther() throws Exception {
    var b = Tls.builder().sslContext(javax.net.ssl.SSLContext.getDefault()).pin("**", SERVER_PIN);
    assertThrows(IllegalStateException.class, b::build);
  }
}
