package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import dev.strand.testkit.tls.TestPki;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Named profiles against a server that offers only TLS 1.2 with a CBC suite: MODERN refuses it, COMPATIBLE takes it. */
@ExtendWith(NettyLeakDetectorExtension.class)
class TlsProfileTest {
  static java.util.stream.Stream<Tls.Engine> engines() {
    return HttpsTest.engines();
  }

  private static final String CBC = "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA"; // the test server's key is EC

  private static TestServer cbcOnlyServer() throws Exception {
    TestPki pki = SharedTestPki.get();
    SslContext ctx = SslContextBuilder.forServer(pki.server().cert().toFile(), pki.server().key().toFile())
        .sslProvider(SslProvider.JDK).protocols("TLSv1.2").ciphers(List.of(CBC)).build();
    return TestServer.builder().tls(ctx).build();
  }

  private static int get(TestServer server, Tls tls) {
    try (Client client = Client.builder().tls(tls).build()) {
      Response r = client.get("https://localhost:" + server.port() + "/small");
      assertEquals(CBC, r.sslSession().orElseThrow().getCipherSuite());
      return r.status();
    }
  }

  @ParameterizedTest
  @MethodSource("engines")
  void modernRefusesACbcOnlyServerAndCompatibleAcceptsIt(Tls.Engine engine) throws Exception {
    try (TestServer server = cbcOnlyServer()) {
      Tls base = SharedTestPki.trustTestCa(engine);
      TlsException e = assertThrows(TlsException.class,
          () -> get(server, base.toBuilder().profile(Tls.Profile.MODERN).build()));
      assertEquals(TlsException.Reason.PROTOCOL, e.reason(), e.getMessage());
      assertEquals(200, get(server, base.toBuilder().profile(Tls.Profile.COMPATIBLE).build()));
    }
  }

  @org.junit.jupiter.api.Test
  void aProfileIsItsProtocolsAndSuites() {
    Tls tls = Tls.builder().profile(Tls.Profile.MODERN).build();
    assertEquals(Tls.Profile.MODERN.protocols(), tls.protocols());
    assertEquals(Tls.Profile.MODERN.cipherSuites(), tls.cipherSuites());
    assertEquals(List.of("TLSv1.3"), Tls.builder().profile(Tls.Profile.MODERN).protocols("TLSv1.3").build().protocols());
  }
}
