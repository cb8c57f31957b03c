package dev.strand.internal.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.tls.TestPki;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.interfaces.ECPrivateKey;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** PEM keys in every unencrypted layout, read with the JDK alone. */
class PemTest {
  static TestPki pki;

  @BeforeAll
  static void generate() throws Exception {
    pki = TestPki.shared();
  }

  @Test
  void pkcs8KeysOfBothAlgorithms() throws Exception {
    assertArrayEquals(pki.client().privateKey().getEncoded(), Pem.readPrivateKey(pki.client().key()).getEncoded());
    assertArrayEquals(pki.server().privateKey().getEncoded(), Pem.readPrivateKey(pki.server().key()).getEncoded());
  }

  @Test
  void pkcs1RsaKey() throws Exception {
    assertTrue(Files.readString(pki.client().traditionalKey()).startsWith("-----BEGIN RSA PRIVATE KEY-----"));
    assertArrayEquals(pki.client().privateKey().getEncoded(),
        Pem.readPrivateKey(pki.client().traditionalKey()).getEncoded());
  }

  @Test
  void sec1EcKey() throws Exception {
    assertTrue(Files.readString(pki.server().traditionalKey()).startsWith("-----BEGIN EC PRIVATE KEY-----"));
    ECPrivateKey expected = (ECPrivateKey) pki.server().privateKey();
    ECPrivateKey actual = (ECPrivateKey) Pem.readPrivateKey(pki.server().traditionalKey());
    assertEquals(expected.getS(), actual.getS());
    assertEquals(expected.getParams().getCurve(), actual.getParams().getCurve());
  }

  @Test
  void keyAfterACertificateInTheSameFile() throws Exception {
    String both = Files.readString(pki.client().cert()) + Files.readString(pki.client().traditionalKey());
    assertArrayEquals(pki.client().privateKey().getEncoded(), Pem.privateKey(both, "both.pem").getEncoded());
    assertEquals(List.of(pki.client().certificate()), Pem.certificates(both));
  }

  @Test
  void encryptedKeysAreRefusedWithAHint() {
    String encrypted = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIBvTBXBgkqhkiG9w0BBQ0wSjApBgkq\n"
        + "-----END ENCRYPTED PRIVATE KEY-----\n";
    GeneralSecurityException e =
        assertThrows(GeneralSecurityException.class, () -> Pem.privateKey(encrypted, "secret.key"));
    assertTrue(e.getMessage().contains("secret.key holds an encrypted private key"), e.getMessage());
  }

  @Test
  void aFileWithoutKeySaysSo() throws Exception {
    GeneralSecurityException e = assertThrows(GeneralSecurityException.class,
        () -> Pem.readPrivateKey(pki.ca().cert()));
    assertTrue(e.getMessage().startsWith("no private key"), e.getMessage());
  }
}
