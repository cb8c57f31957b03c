package dev.strand.internal.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.tls.TestPki;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** System trust with a fake environment and file-system root: which sources win, and merging. */
class SystemTrustTest {
  @TempDir Path root;
  static TestPki pki;
  static X509Certificate ca;
  static X509Certificate clientCa;
  static X509Certificate selfSigned;
  /** Stands in for the JDK's cacerts. */
  static Supplier<List<X509Certificate>> jdk;

  @BeforeAll
  static void generate() throws Exception {
    pki = TestPki.shared();
    ca = pki.ca().certificate();
    clientCa = pki.clientCa().certificate();
    selfSigned = pki.selfSigned().certificate();
    jdk = () -> List.of(selfSigned);
  }

  private Path bundle(String relative, String content) throws Exception {
    Path file = root.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
    return file;
  }

  private static String pem(TestPki.Identity id) throws Exception {
    return Files.readString(id.cert());
  }

  private static List<String> names(SystemTrust t) {
    return t.sources().stream().map(SystemTrust.Source::name).toList();
  }

  @Test
  void sslCertFileReplacesTheDistributionBundleAndIsMergedWithTheJdkStore() throws Exception {
    bundle("etc/ssl/certs/ca-certificates.crt", pem(pki.clientCa()));
    SystemTrust t = SystemTrust.load(Map.of("SSL_CERT_FILE", pki.ca().cert().toString()), root, jdk);
    assertEquals(List.of(ca, selfSigned), t.certificates());
    assertEquals(List.of("SSL_CERT_FILE=" + pki.ca().cert(), "JDK cacerts"), names(t));
    assertEquals(1, t.sources().get(0).certificates());
  }

  @Test
  void sslCertDirReadsCertificateFilesOnceAndSkipsTheRest() throws Exception {
    Path dir = root.resolve("certs");
    Files.createDirectories(dir);
    Path caFile = Files.writeString(dir.resolve("test-ca.pem"), pem(pki.ca()));
    Files.createSymbolicLink(dir.resolve("0a1b2c3d.0"), caFile); // a c_rehash link to the same file
    Files.writeString(dir.resolve("client-ca.crt"), pem(pki.clientCa()));
    Files.writeString(dir.resolve("README"), pem(pki.wrongHost())); // not a certificate file name
    Files.writeString(dir.resolve("broken.pem"), "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
    bundle("etc/ssl/certs/ca-certificates.crt", pem(pki.server()));

    SystemTrust t = SystemTrust.load(Map.of("SSL_CERT_DIR", dir + ":" + root.resolve("missing")), root, jdk);
    assertEquals(3, t.certificates().size(), () -> t.certificates().toString());
    assertTrue(t.certificates().containsAll(List.of(ca, clientCa, selfSigned)));
    assertEquals(List.of("SSL_CERT_DIR=" + dir, "JDK cacerts"), names(t));
    assertEquals(2, t.sources().get(0).certificates(), "the link is not read twice, broken.pem adds none");
  }

  @Test
  void bothVariablesAreUsedTogether() throws Exception {
    Path dir = Files.createDirectories(root.resolve("dir"));
    Files.writeString(dir.resolve("client-ca.pem"), pem(pki.clientCa()));
    SystemTrust t = SystemTrust.load(
        Map.of("SSL_CERT_FILE", pki.ca().cert().toString(), "SSL_CERT_DIR", dir.toString()), root, jdk);
    assertEquals(List.of(ca, clientCa, selfSigned), t.certificates());
  }

  @Test
  void aVariableNamingNothingFallsBackToTheDistributionBundle() throws Exception {
    bundle("etc/ssl/certs/ca-certificates.crt", pem(pki.clientCa()));
    SystemTrust t = SystemTrust.load(Map.of("SSL_CERT_FILE", root.resolve("nope.pem").toString()), root, jdk);
    assertEquals(List.of(clientCa, selfSigned), t.certificates());
    assertEquals(List.of(root.resolve("etc/ssl/certs/ca-certificates.crt").toString(), "JDK cacerts"), names(t));
  }

  @Test
  void theFirstDistributionBundleFoundIsUsedAndCommentsAroundBlocksAreIgnored() throws Exception {
    bundle("etc/pki/tls/certs/ca-bundle.crt", "# Strand Test CA\n# fingerprint ...\n" + pem(pki.ca())
        + "\n# Client CA\n" + pem(pki.clientCa()) + "trailing text\n");
    bundle("etc/ssl/cert.pem", pem(pki.server()));
    SystemTrust t = SystemTrust.load(Map.of(), root, jdk);
    assertEquals(List.of(ca, clientCa, selfSigned), t.certificates());
    assertEquals(2, t.sources().get(0).certificates());
  }

  @Test
  void certificatesInBothBundleAndJdkStoreAreKeptOnce() throws Exception {
    bundle("etc/ssl/certs/ca-certificates.crt", pem(pki.ca()) + pem(pki.selfSigned()));
    SystemTrust t = SystemTrust.load(Map.of(), root, jdk);
    assertEquals(List.of(ca, selfSigned), t.certificates());
  }

  @Test
  void withoutAnyBundleTheJdkStoreAloneIsTrusted() {
    List<X509Certificate> cacerts = SystemTrust.jdkDefault();
    assertFalse(cacerts.isEmpty(), "the JDK ships CA certificates");
    SystemTrust t = SystemTrust.load(Map.of(), root, SystemTrust::jdkDefault);
    assertEquals(List.of("JDK cacerts"), names(t));
    assertEquals(cacerts.size(), t.certificates().size());
  }

  @Test
  void theProcessWideTrustIsLoadedOnceAndItsTrustManagerFactoryBuiltOnce() throws Exception {
    SystemTrust t = SystemTrust.get();
    assertSame(t, SystemTrust.get());
    assertTrue(t.certificates().containsAll(SystemTrust.jdkDefault()));
    assertEquals("JDK cacerts", t.sources().get(t.sources().size() - 1).name());
    assertSame(t.trustManagerFactory(), t.trustManagerFactory());
  }
}
