package dev.strand.internal.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Tls;
import dev.strand.testkit.tls.TestPki;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Building, caching and engine choice (handshakes themselves are in {@link TlsHandshakeTest}). */
class TlsContextsTest {
  @TempDir static Path dir;
  static TestPki pki;

  @BeforeAll
  static void generate() throws Exception {
    pki = TestPki.shared();
  }

  @Test
  void openSslIsOnTheTestClassPathAndAutoPrefersIt() {
    assertTrue(TlsContexts.openSslAvailable(), "netty-tcnative-boringssl-static must load in tests");
    Tls tls = Tls.builder().trustPem(pki.ca().cert()).build();
    assertEquals("openssl", TlsContexts.get(tls, List.of("h2", "http/1.1")).engine());
    assertEquals("jdk", TlsContexts.get(tls.toBuilder().engine(Tls.Engine.JDK).build(), List.of()).engine());
  }

  @Test
  void contextsAreCachedPerSettingsAndAlpn() {
    Tls a = Tls.builder().trustPem(pki.ca().cert()).engine(Tls.Engine.JDK).build();
    Tls equal = Tls.builder().trustPem(pki.ca().cert()).engine(Tls.Engine.JDK).build();
    TlsContext ctx = TlsContexts.get(a, List.of("h2", "http/1.1"));
    assertSame(ctx, TlsContexts.get(equal, List.of("h2", "http/1.1")));
    assertNotSame(ctx, TlsContexts.get(a, List.of("http/1.1")));
    assertEquals(List.of("h2", "http/1.1"), ctx.alpn());
    assertTrue(ctx.sslContext().isClient());
  }

  @Test
  void aUserSslContextRunsOnTheJdkEngine() throws Exception {
    Tls tls = Tls.builder().sslContext(javax.net.ssl.SSLContext.getDefault()).build();
    TlsContext ctx = TlsContexts.get(tls, List.of("http/1.1"));
    assertEquals("jdk", ctx.engine());
  }

  @Test
  void missingFilesAreNamed() {
    Path missing = dir.resolve("nope.pem");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TlsContexts.get(Tls.builder().trustPem(missing).build(), List.of()));
    assertTrue(e.getMessage().contains("trustPem file " + missing + " does not exist"), e.getMessage());
    IllegalArgumentException key = assertThrows(IllegalArgumentException.class, () -> TlsContexts.get(
        Tls.builder().clientCertificate(pki.client().cert(), missing).build(), List.of()));
    assertTrue(key.getMessage().contains("client key file " + missing), key.getMessage());
    IllegalArgumentException password = assertThrows(IllegalArgumentException.class, () -> TlsContexts.get(
        Tls.builder().clientPkcs12(pki.client().p12(), "wrong".toCharArray()).build(), List.of()));
    assertTrue(password.getMessage().startsWith("cannot set up TLS"), password.getMessage());
  }

  @Test
  void ipLiteralsAndBrackets() {
    assertTrue(TlsContexts.isIpLiteral("127.0.0.1"));
    assertTrue(TlsContexts.isIpLiteral("::1"));
    assertTrue(TlsContexts.isIpLiteral("fe80::1%eth0"));
    assertFalse(TlsContexts.isIpLiteral("localhost"));
    assertFalse(TlsContexts.isIpLiteral("1.2.3.4.example"));
    assertFalse(TlsContexts.isIpLiteral("256.1.1.1"));
    assertFalse(TlsContexts.isIpLiteral("10.0.0"));
    assertEquals("::1", TlsContexts.stripBrackets("[::1]"));
    assertEquals("example.com", TlsContexts.stripBrackets("example.com"));
  }
}
