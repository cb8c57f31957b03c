package dev.strand.internal.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Tls;
import dev.strand.TlsException;
import dev.strand.TlsException.Reason;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.tls.TestPki;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.security.KeyStore;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Real handshakes over loopback, once per engine. The OpenSSL engine is on the test class path,
 * so its cases fail (never skip) when it cannot load.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
@Timeout(60)
class TlsHandshakeTest {
  private static final Duration CONNECT = Duration.ofSeconds(5);
  static TestPki pki;
  static HandshakeClient client;
  static EventLoopGroup servers;

  @BeforeAll
  static void setUp() throws Exception {
    pki = TestPki.shared();
    client = new HandshakeClient();
    servers = TlsTestServer.newGroup();
  }

  @AfterAll
  static void tearDown() {
    client.close();
    servers.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  static SslContextBuilder serverBuilder(TestPki.Identity id) {
    return SslContextBuilder.forServer(id.privateKey(), id.certificate()).sslProvider(SslProvider.JDK);
  }

  static SslContext server(TestPki.Identity id) throws SSLException {
    return serverBuilder(id).build();
  }

  static SslContext serverRequiringClientCert() throws SSLException {
    return serverBuilder(pki.server()).trustManager(pki.clientCa().certificate()).clientAuth(ClientAuth.REQUIRE)
        .build();
  }

  static Tls.Builder trustingTestCa(Tls.Engine engine) {
    return Tls.builder().trustPem(pki.ca().cert()).engine(engine);
  }

  static TlsContext context(Tls tls) {
    TlsContext ctx = TlsContexts.get(tls, List.of("http/1.1"));
    assertEquals(tls.engine() == Tls.Engine.OPENSSL ? "openssl" : "jdk", ctx.engine());
    return ctx;
  }

  static HandshakeClient.Outcome exchange(SslContext serverContext, Tls tls, String host) throws Exception {
    try (TlsTestServer server = TlsTestServer.tls(servers, serverContext)) {
      return client.exchange(context(tls), host, server.port(), CONNECT);
    }
  }

  static TlsException failure(HandshakeClient.Outcome outcome, String host, int port, Tls tls, Reason expected) {
    assertNotNull(outcome.failure(), "expected a TLS failure, got " + outcome);
    assertTrue(TlsErrors.isTlsFailure(outcome.failure()), () -> "not recognised as TLS: " + outcome.failure());
    TlsException e = TlsErrors.translate(outcome.failure(), host, port, tls, null);
    assertEquals(expected, e.reason(), () -> e.getMessage() + "\n" + TlsErrors.chain(outcome.failure()));
    assertTrue(e.getMessage().startsWith("TLS handshake with " + host + ":" + port), e.getMessage());
    return e;
  }

  @ParameterizedTest
  @EnumSource(names = {"JDK", "OPENSSL"})
  void trustedCaHandshakeSucceedsAndTheSecondConnectionResumesTheSession(Tls.Engine engine) throws Exception {
    Tls tls = trustingTestCa(engine).build();
    try (TlsTestServer server = TlsTestServer.tls(servers, server(pki.server()))) {
      HandshakeClient.Outcome first = client.exchange(context(tls), "localhost", server.port(), CONNECT);
      assertTrue(first.ok(), () -> "first: " + first);
      HandshakeClient.Outcome second = client.exchange(context(tls), "localhost", server.port(), CONNECT);
      assertTrue(second.ok(), () -> "second: " + second);
      assertTrue(Resumption.resumed(first, second), () -> "not resumed: " + Resumption.describe(first, second));
      // Control: a context of its own has an empty session cache, so it must do a full handshake.
      HandshakeClient.Outcome fresh = client.exchange(TlsContexts.build(tls, List.of("http/1.1")), "localhost",
          server.port(), CONNECT);
      assertTrue(fresh.ok(), () -> "fresh: " + fresh);
      assertFalse(Resumption.resumed(first, fresh), () -> "resumed: " + Resumption.describe(first, fresh));
      assertEquals(List.of(new SNIHostName("localhost")), server.requestedServerNames.get(0));
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"JDK", "OPENSSL"})
  void ipLiteralIsVerifiedAgainstIpSubjectAltNameAndSendsNoSni(Tls.Engine engine) throws Exception {
    Tls tls = trustingTestCa(engine).build();
    try (TlsTestServer server = TlsTestServer.tls(servers, server(pki.server()))) {
      HandshakeClient.Outcome v4 = client.exchange(context(tls), "127.0.0.1", server.port(), CONNECT);
      assertTrue(v4.ok(), () -> "127.0.0.1: " + v4);
      HandshakeClient.Outcome v6 = client.exchange(context(tls), "[::1]", server.port(), CONNECT);
      assertTrue(v6.ok(), () -> "[::1]: " + v6);
      assertEquals(List.of(List.of(), List.of()), server.requestedServerNames, "no SNI for an IP literal");
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"JDK", "OPENSSL"})
  void systemTrustDoesNotKnowTheTestCa(Tls.Engine engine) throws Exception {
    Tls tls = Tls.builder().engine(engine).build();
    try (TlsTestServer server = TlsTestServer.tls(servers, server(pki.server()))) {
      HandshakeClient.Outcome o = client.exchange(context(tls), "127.0.0.1", server.port(), CONNECT);
      TlsException e = failure(o, "127.0.0.1", server.port(), tls, Reason.UNKNOWN_CA);
      assertTrue(e.getMessage().contains("certificate for 127.0.0.1 was signed by an unknown CA \"Strand Test CA\" "
          + "(not in the system trust store)"), e.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"JDK", "OPENSSL"})
  void selfSignedCertificateIsAnUnknownCa(Tls.Engine engine) throws Exception {
    Tls tls = trustingTestCa(engine).build();
    HandshakeClient.Outcome o;
    try (TlsTestServer server = TlsTestServer.tls(servers, server(pki.selfSigned()))) {
      o = client.exchange(context(tls), "localhost", server.port(), CONNECT);
      TlsException e = failure(o, "localhost", server.port(), tls, Reason.UNKNOWN_CA);
      assertTrue(e.getMessage().contains("is self-signed (\"localhost\")"), e.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"JDK", "OPENSSL"})
  void wrongHostNameIsAMismatch(Tls.Engine engine) throws Exception {
    Tls tls = trustingTestCa(engine).build();
    try (TlsTestServer server = TlsTestServer.tls(servers, server(pki.wrongHost()))) {
      HandshakeClient.Outcome o = client.exchange(context(tls), "localhost", server.port(), CONNECT);
      TlsException e = failure(o, "localhost", server.port(), tls, Reason.HOSTNAME_MISMATCH);
      assertTrue(e.getMessage().endsWith("certificate is for wrong.example, not for localhost"), e.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"JDK", "OPENSSL"})
  void ipLiteralNotInTheCertificateIsAMismatch(Tls.Engine engine) throws Exception {
    Tls tls = trustingTestCa(engine).build();
    try (TlsTestServer server = TlsTestServer.tls(servers, server(pki.wrongHost()))) {
      HandshakeClient.Outcome o = client.exchange(context(tls), "127.0.0.1", server.port(), CONNECT);
      TlsException e = failure(o, "127.0.0.1", server.port(), tls, Reason.HOSTNAME_MISMATCH);
      assertTrue(e.getMessage().endsWith("not for 127.0.0.1"), e.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"JDK", "OPENSSL"})
  void expiredCertificate(Tls.Engine engine) throws Exception {
    Tls tls = trustingTestCa(engine).build();
    try (TlsTestServer server = TlsTestServer.tls(servers, server(pki.expired()))) {
      HandshakeClient.Outcome o = client.exchange(context(tls), "localhost", server.port(), CONNECT);
      TlsException e = failure(o, "localhost", server.port(), tls, Reason.EXPIRED);
      assertTrue(e.getMessage().contains("certificate for localhost (\"localhost\") expired on "
          + pki.expired().certificate().getNotAfter().toInstant()), e.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"JDK", "OPENSSL"})
  void notYetValidCertificate(Tls.Engine engine) throws Exception {
    Tls tls = trustingTestCa(engine).build();
    try (TlsTestServer server = TlsTestServer.tls(servers, server(pki.notYetValid()))) {
      HandshakeClient.Outcome o = client.exchange(context(tls), "localhost", server.port(), CONNECT);
      TlsException e = failure(o, "localhost", server.port(), tls, Reason.NOT_YET_VALID);
      assertTrue(e.getMessage().contains("is not valid before"), e.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"JDK", "OPENSSL"})
  void serverRequiresAClientCertificateAndNoneIsConfigured(Tls.Engine engine) throws Exception {
    Tls tls = trustingTestCa(engine).build();
    try (TlsTestServer server = TlsTestServer.tls(servers, serverRequiringClientCert())) {
      HandshakeClient.Outcome o = client.exchange(context(tls), "localhost", server.port(), CONNECT);
      TlsException e = failure(o, "localhost", server.port(), tls, Reason.CLIENT_CERT_REQUIRED);
      assertTrue(e.getMessage().contains("the server requires a client certificate"), e.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"JDK", "OPENSSL"})
  void clientCertificateFromPemWithPkcs8Key(Tls.Engine engine) throws Exception {
    assertClientAccepted(trustingTestCa(engine).clientCertificate(pki.client().cert(), pki.client().key()).build());
  }

  @ParameterizedTest
  @EnumSource(names = {"JDK", "OPENSSL"})
  void clientCertificateFromPemWithPkcs1Key(Tls.Engine engine) throws Exception {
    assertClientAccepted(
        trustingTestCa(engine).clientCertificate(pki.client().cert(), pki.client().traditionalKey()).build());
  }

  @ParameterizedTest
  @EnumSource(names = {"JDK", "OPENSSL"})
  void clientCertificateFromPkcs12(Tls.Engine engine) throws Exception {
    assertClientAccepted(
        trustingTestCa(engine).clientPkcs12(pki.client().p12(), TestPki.PASSWORD.toCharArray()).build());
  }

  private static void assertClientAccepted(Tls tls) throws Exception {
    try (TlsTestServer server = TlsTestServer.tls(servers, serverRequiringClientCert())) {
      HandshakeClient.Outcome o = client.exchange(context(tls), "localhost", server.port(), CONNECT);
      assertTrue(o.ok(), () -> o.toString());
      SSLSession serverSide = server.sessions.get(0);
      assertEquals(pki.client().certificate(), serverSide.getPeerCertificates()[0]);
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"JDK", "OPENSSL"})
  void clientCertificateTheServerDoesNotTrustIsRejected(Tls.Engine engine) throws Exception {
    // Signed by the server CA, which the server does not accept for clients.
    Tls tls = trustingTestCa(engine).clientCertificate(pki.server().cert(), pki.server().key()).build();
    try (TlsTestServer server = TlsTestServer.tls(servers, serverRequiringClientCert())) {
      HandshakeClient.Outcome o = client.exchange(context(tls), "localhost", server.port(), CONNECT);
      TlsException e = failure(o, "localhost", server.port(), tls, Reason.CLIENT_CERT_REQUIRED);
      assertTrue(e.getMessage().contains("the server did not accept the configured client certificate"), e.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"JDK", "OPENSSL"})
  void insecureAcceptsASelfSignedCertificateForAnyName(Tls.Engine engine) throws Exception {
    Tls tls = Tls.insecure().toBuilder().engine(engine).build();
    assertTrue(InsecureWarning.GLOBAL.warned(), "Tls.insecure() must have logged its warning");
    try (TlsTestServer server = TlsTestServer.tls(servers, server(pki.selfSigned()))) {
      HandshakeClient.Outcome o = client.exchange(context(tls), "any.invalid", server.port(), CONNECT);
      assertTrue(o.ok(), () -> o.toString());
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"JDK", "OPENSSL"})
  void silentServerHitsTheHandshakeTimeout(Tls.Engine engine) throws Exception {
    Tls tls = trustingTestCa(engine).handshakeTimeout(Duration.ofMillis(300)).build();
    try (TlsTestServer server = TlsTestServer.silent(servers)) {
      long start = System.nanoTime();
      HandshakeClient.Outcome o = client.exchange(context(tls), "localhost", server.port(), CONNECT);
      long millis = (System.nanoTime() - start) / 1_000_000;
      TlsException e = failure(o, "localhost", server.port(), tls, Reason.HANDSHAKE_TIMEOUT);
      assertTrue(millis >= 250 && millis < 10_000, "took " + millis + " ms"); // the client gives up at 15 s
      assertTrue(e.getMessage().contains("timed out"), e.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"JDK", "OPENSSL"})
  void connectTimeoutBoundsTheHandshakeWhenNoHandshakeTimeoutIsSet(Tls.Engine engine) throws Exception {
    Tls tls = trustingTestCa(engine).build();
    try (TlsTestServer server = TlsTestServer.silent(servers)) {
      HandshakeClient.Outcome o = client.exchange(context(tls), "localhost", server.port(), Duration.ofMillis(200));
      failure(o, "localhost", server.port(), tls, Reason.HANDSHAKE_TIMEOUT);
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"JDK", "OPENSSL"})
  void noCommonProtocolVersion(Tls.Engine engine) throws Exception {
    Tls tls = trustingTestCa(engine).protocols("TLSv1.2").build();
    SslContext tls13Only = serverBuilder(pki.server()).protocols("TLSv1.3").build();
    try (TlsTestServer server = TlsTestServer.tls(servers, tls13Only)) {
      HandshakeClient.Outcome o = client.exchange(context(tls), "localhost", server.port(), CONNECT);
      TlsException e = failure(o, "localhost", server.port(), tls, Reason.PROTOCOL);
      assertTrue(e.getMessage().contains("no TLS protocol version or cipher suite in common (this client allows "
          + "TLSv1.2)"), e.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"JDK", "OPENSSL"})
  void plainHttpServerIsAProtocolError(Tls.Engine engine) throws Exception {
    Tls tls = trustingTestCa(engine).build();
    try (TlsTestServer server = TlsTestServer.plain(servers)) {
      HandshakeClient.Outcome o = client.exchange(context(tls), "localhost", server.port(), CONNECT);
      TlsException e = failure(o, "localhost", server.port(), tls, Reason.PROTOCOL);
      assertTrue(e.getMessage().contains("did not answer in TLS"), e.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"JDK", "OPENSSL"})
  void alpnNegotiatesH2WhenBothOfferIt(Tls.Engine engine) throws Exception {
    Tls tls = trustingTestCa(engine).build();
    SslContext h2Server = serverBuilder(pki.server())
        .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
            ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
            ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, "h2", "http/1.1"))
        .build();
    try (TlsTestServer server = TlsTestServer.tls(servers, h2Server)) {
      TlsContext ctx = TlsContexts.get(tls, List.of("h2", "http/1.1"));
      HandshakeClient.Outcome h2 = client.exchange(ctx, "localhost", server.port(), CONNECT);
      assertEquals("h2", h2.alpn(), () -> h2.toString());
      HandshakeClient.Outcome h1 = client.exchange(context(tls), "localhost", server.port(), CONNECT);
      assertEquals("http/1.1", h1.alpn(), () -> h1.toString());
    }
  }

  @Test
  void aUserSuppliedSslContextDecidesTrustAndHostNamesAreStillVerified() throws Exception {
    TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
    KeyStore ks = KeyStore.getInstance("PKCS12");
    ks.load(null, null);
    ks.setCertificateEntry("ca", pki.ca().certificate());
    tmf.init(ks);
    SSLContext jdk = SSLContext.getInstance("TLS");
    jdk.init(null, tmf.getTrustManagers(), null);
    Tls tls = Tls.builder().sslContext(jdk).build();
    try (TlsTestServer server = TlsTestServer.tls(servers, server(pki.server()))) {
      HandshakeClient.Outcome ok = client.exchange(TlsContexts.get(tls, List.of()), "localhost", server.port(), CONNECT);
      assertTrue(ok.ok(), () -> ok.toString());
    }
    try (TlsTestServer server = TlsTestServer.tls(servers, server(pki.wrongHost()))) {
      HandshakeClient.Outcome o = client.exchange(TlsContexts.get(tls, List.of()), "localhost", server.port(), CONNECT);
      failure(o, "localhost", server.port(), tls, Reason.HOSTNAME_MISMATCH);
    }
    Tls defaultJdk = Tls.builder().sslContext(SSLContext.getDefault()).build();
    try (TlsTestServer server = TlsTestServer.tls(servers, server(pki.server()))) {
      HandshakeClient.Outcome o = client.exchange(TlsContexts.get(defaultJdk, List.of()), "localhost", server.port(),
          CONNECT);
      TlsException e = failure(o, "localhost", server.port(), defaultJdk, Reason.UNKNOWN_CA);
      assertTrue(e.getMessage().contains("(not in the trust store of the configured SSLContext)"), e.getMessage());
    }
  }
}
