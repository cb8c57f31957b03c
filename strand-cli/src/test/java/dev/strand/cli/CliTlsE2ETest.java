package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServer;
import dev.strand.testkit.tls.TestPki;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** TLS and protocol flags against the testkit's HTTPS (h2 + http/1.1 via ALPN) server. */
class CliTlsE2ETest {
  static TestPki pki;
  static TestServer server;
  static TestServer expired;

  @BeforeAll
  static void start() throws Exception {
    pki = TestPki.generate(Files.createTempDirectory("strand-cli-pki"));
    server = TestServer.builder().tls(pki.server().cert(), pki.server().key()).http2(true).build();
    expired = TestServer.builder().tls(pki.expired().cert(), pki.expired().key()).build();
  }

  @AfterAll
  static void stop() {
    server.close();
    expired.close();
  }

  @Test
  void pinnedPubkeyMatchingPassesAndAnotherIs90() throws Exception {
    String right = "sha256//" + spki(pki.server().certificate());
    String wrong = "sha256//" + spki(pki.selfSigned().certificate());
    Cli.Result ok = Cli.run("--cacert", ca(), "--pinnedpubkey", wrong + ";" + right, server.url("/small"));
    assertEquals(0, ok.exit(), ok::toString);
    Cli.Result bad = Cli.run("--cacert", ca(), "--pinnedpubkey", wrong, server.url("/small"));
    assertEquals(90, bad.exit(), bad::toString);
    assertTrue(bad.toString().contains("pinning"), bad::toString);
    Cli.Result malformed = Cli.run("--cacert", ca(), "--pinnedpubkey", "sha256//nope", server.url("/small"));
    assertEquals(2, malformed.exit(), malformed::toString);
  }

  private static String spki(java.security.cert.X509Certificate cert) throws Exception {
    byte[] hash = java.security.MessageDigest.getInstance("SHA-256").digest(cert.getPublicKey().getEncoded());
    return java.util.Base64.getEncoder().encodeToString(hash);
  }

  @Test
  void hstsFileUpgradesAKnownHostToHttps() throws Exception {
    java.nio.file.Path hsts = Files.createTempFile("strand-hsts", ".txt");
    String plain = "http://localhost:" + server.port() + "/small"; // the TLS port, asked in cleartext
    Cli.Result refused = Cli.run("--cacert", ca(), "--hsts", hsts.toString(), plain);
    assertTrue(refused.exit() != 0, "an unknown host is not upgraded: " + refused);
    Files.writeString(hsts, "# curl's format\nlocalhost \"20991231 00:00:00\"\n");
    Cli.Result upgraded = Cli.run("--cacert", ca(), "--hsts", hsts.toString(), plain);
    assertEquals(0, upgraded.exit(), upgraded::toString);
    assertEquals(new String(Payloads.SMALL, StandardCharsets.UTF_8), upgraded.stdout());
  }

  @Test
  void cacertTrustsTheServer() {
    Cli.Result r = Cli.run("--cacert", ca(), server.url("/small"));
    assertEquals(0, r.exit(), r::toString);
    assertEquals(new String(Payloads.SMALL, StandardCharsets.UTF_8), r.stdout());
  }

  @Test
  void anUntrustedCertificateIs60() {
    Cli.Result r = Cli.run(server.url("/small"));
    assertEquals(60, r.exit(), r::toString);
    assertTrue(r.stderr().startsWith("strand: ") && r.stderr().contains("unknown CA"), r::toString);
    assertEquals(1, r.stderr().lines().count(), r::toString);
  }

  @Test
  void anExpiredCertificateIs60() {
    Cli.Result r = Cli.run("--cacert", ca(), expired.url("/small"));
    assertEquals(60, r.exit(), r::toString);
    assertTrue(r.stderr().contains("expired"), r::toString);
  }

  @Test
  void insecureSkipsVerification() {
    Cli.Result r = Cli.run("-k", server.url("/small"));
    assertEquals(0, r.exit(), r::toString);
    assertEquals(Payloads.SMALL.length, r.stdoutBytes().length);
  }

  @Test
  void http2IsNegotiatedByDefaultAndHttp11OptsOut() {
    Cli.Result byDefault = Cli.run("-i", "--cacert", ca(), server.url("/small"));
    assertEquals(0, byDefault.exit(), byDefault::toString);
    assertTrue(byDefault.stdout().startsWith("HTTP/2 200"), "h2 by ALPN unless --http1.1, as curl: " + byDefault);
    Cli.Result h2 = Cli.run("-i", "--http2", "--cacert", ca(), server.url("/small"));
    assertEquals(0, h2.exit(), h2::toString);
    assertTrue(h2.stdout().startsWith("HTTP/2 200"), h2::toString);
    Cli.Result h1 = Cli.run("-i", "--http1.1", "--cacert", ca(), server.url("/small"));
    assertEquals(0, h1.exit(), h1::toString);
    assertTrue(h1.stdout().startsWith("HTTP/1.1 200"), h1::toString);
    Cli.Result last = Cli.run("-i", "--http1.1", "--http2", "--cacert", ca(), server.url("/small"));
    assertTrue(last.stdout().startsWith("HTTP/2 200"), "the last of --http1.1 and --http2 wins: " + last);
    Cli.Result lastH1 = Cli.run("-i", "--http2", "--http1.1", "--cacert", ca(), server.url("/small"));
    assertTrue(lastH1.stdout().startsWith("HTTP/1.1 200"), "the last of --http1.1 and --http2 wins: " + lastH1);
  }

  @Test
  void verboseDescribesTheTlsSessionOncePerConnection() {
    Cli.Result r = Cli.run("-v", "-L", "--http2", "--cacert", ca(), server.url("/redirect/2"));
    assertEquals(0, r.exit(), r::toString);
    String subject = pki.server().certificate().getSubjectX500Principal().getName();
    assertTrue(r.stderr().contains("* TLS: TLSv1.3, TLS_"), r::toString);
    assertTrue(r.stderr().contains("; server certificate: subject " + subject + ", issuer "), r::toString);
    assertEquals(1, r.stderr().lines().filter(l -> l.startsWith("* TLS: ")).count(), "three responses, one connection");
    assertTrue(r.stderr().contains("< HTTP/2 200"), r::toString);
  }

  @Test
  void clientCertificateAndKeyAnswerAServerThatAsks() {
    try (TestServer mtls = TestServer.builder().tls(pki.server().cert(), pki.server().key())
        .requireClientAuth(pki.clientCa().cert()).build()) {
      Cli.Result without = Cli.run("--cacert", ca(), mtls.url("/small"));
      assertEquals(35, without.exit(), without::toString);
      Cli.Result with = Cli.run("--cacert", ca(), "--cert", pki.client().cert().toString(), "--key",
          pki.client().key().toString(), mtls.url("/small"));
      assertEquals(0, with.exit(), with::toString);
      assertEquals(new String(Payloads.SMALL, StandardCharsets.UTF_8), with.stdout());
    }
  }

  @Test
  void http2PriorKnowledgeSpeaksH2cToACleartextServer() {
    try (TestServer h2c = TestServer.builder().http2(true).build()) {
      Cli.Result r = Cli.run("-i", "--http2-prior-knowledge", h2c.url("/small"));
      assertEquals(0, r.exit(), r::toString);
      assertTrue(r.stdout().startsWith("HTTP/2 200"), r::toString);
      Cli.Result h1 = Cli.run("-i", h2c.url("/small"));
      assertTrue(h1.stdout().startsWith("HTTP/1.1 200"), "the default speaks HTTP/1.1 in cleartext (no h2c): " + h1);
    }
  }

  @Test
  void aMissingCaFileIsAUsageError() {
    Cli.Result r = Cli.run("--cacert", "/no/such/ca.pem", server.url("/small"));
    assertEquals(2, r.exit(), r::toString);
    assertTrue(r.stderr().contains("--cacert /no/such/ca.pem"), r::toString);
  }

  @Test
  void aFileThatIsNoCertificateIsAUsageError() {
    Cli.Result r = Cli.run("--cacert", pki.server().key().toString(), server.url("/small"));
    assertEquals(2, r.exit(), r::toString);
    assertTrue(r.stderr().contains("CERTIFICATE"), r::toString);
    assertEquals(1, r.stderr().lines().count(), r::toString);
  }

  private static String ca() {
    return pki.ca().cert().toString();
  }
}
