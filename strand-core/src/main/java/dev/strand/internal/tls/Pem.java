package dev.strand.internal.tls;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads PEM certificates and unencrypted private keys with the JDK alone: PKCS#8 ({@code PRIVATE
 * KEY}), PKCS#1 ({@code RSA PRIVATE KEY}) and SEC1 ({@code EC PRIVATE KEY}), the last two by
 * wrapping them into PKCS#8, so BouncyCastle stays out of the core.
 */
public final class Pem {
  private static final Pattern BLOCK =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([^-]*)-----END \\1-----");
  // DER of AlgorithmIdentifier{rsaEncryption, NULL} and of the OID id-ecPublicKey.
  private static final byte[] RSA_ALGORITHM = {
    0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00
  };
  private static final byte[] EC_PUBLIC_KEY_OID = {0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01};

  private Pem() {}

  /** A decoded PEM block: its label ({@code "CERTIFICATE"}) and DER bytes. */
  record Block(String label, byte[] der) {}

  static List<Block> blocks(String text) {
    List<Block> out = new ArrayList<>();
    Matcher m = BLOCK.matcher(text);
    while (m.find()) {
      String body = m.group(2);
      if (body.contains(":")) {
        continue; // RFC 1421 headers (Proc-Type: 4,ENCRYPTED): not plain base64
      }
      out.add(new Block(m.group(1), Base64.getMimeDecoder().decode(body.strip())));
    }
    return out;
  }

  /** Every {@code CERTIFICATE} block of a file; text around the blocks (bundle comments) is ignored. */
  public static List<X509Certificate> readCertificates(Path file) throws IOException, CertificateException {
    return certificates(Files.readString(file, StandardCharsets.ISO_8859_1));
  }

  static List<X509Certificate> certificates(String text) throws CertificateException {
    CertificateFactory cf = CertificateFactory.getInstance("X.509");
    List<X509Certificate> out = new ArrayList<>();
    for (Block b : blocks(text)) {
      if (b.label().equals("CERTIFICATE") || b.label().equals("TRUSTED CERTIFICATE")) {
        out.add((X509Certificate) cf.generateCertificate(new ByteArrayInputStream(b.der())));
      }
    }
    return out;
  }

  /**
   * The first private key in a PEM file.
   *
   * @throws GeneralSecurityException if there is none, it is encrypted, or its algorithm is unknown
   */
  public static PrivateKey readPrivateKey(Path file) throws IOException, GeneralSecurityException {
    return privateKey(Files.readString(file, StandardCharsets.ISO_8859_1), file.toString());
  }

  static PrivateKey privateKey(String text, String source) throws GeneralSecurityException {
    if (text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || text.contains("Proc-Type: 4,ENCRYPTED")) {
      throw new GeneralSecurityException(source + " holds an encrypted private key; decrypt it first "
          + "(openssl pkey -in KEY -out PLAIN) or use a PKCS#12 file with a password");
    }
    for (Block b : blocks(text)) {
      switch (b.label()) {
        case "PRIVATE KEY" -> {
          return pkcs8(b.der(), source);
        }
        case "RSA PRIVATE KEY" -> {
          return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(wrapPkcs8(RSA_ALGORITHM, b.der())));
        }
        case "EC PRIVATE KEY" -> {
          byte[] algorithm = sequence(concat(EC_PUBLIC_KEY_OID, sec1CurveOid(b.der(), source)));
          return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(wrapPkcs8(algorithm, b.der())));
        }
        default -> {
          // not a key block (a certificate, EC PARAMETERS): keep looking
        }
      }
    }
    throw new GeneralSecurityException("no private key (PKCS#8, PKCS#1 RSA or SEC1 EC PEM block) in " + source);
  }

  private static PrivateKey pkcs8(byte[] der, String source) throws GeneralSecurityException {
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
    for (String algorithm : new String[] {"RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS"}) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException wrongAlgorithm) {
        // the next one may fit
      }
    }
    throw new GeneralSecurityException("unsupported private key algorithm in " + source);
  }

  private static byte[] wrapPkcs8(byte[] algorithmIdentifier, byte[] privateKey) {
    byte[] version = {0x02, 0x01, 0x00};
    return sequence(concat(version, algorithmIdentifier, tlv(0x04, privateKey)));
  }

  /** The named-curve OID in the {@code [0] parameters} of a SEC1 {@code ECPrivateKey}, as a DER TLV. */
  private static byte[] sec1CurveOid(byte[] der, String source) throws GeneralSecurityException {
    Der seq = new Der(der, 0);
    if (seq.tag != 0x30) {
      throw new GeneralSecurityException("malformed EC PRIVATE KEY in " + source);
    }
    int pos = seq.contentStart;
    while (pos < seq.end) {
      Der item = new Der(der, pos);
      if (item.tag == 0xa0) {
        Der oid = new Der(der, item.contentStart);
        if (oid.tag == 0x06) {
          return Arrays.copyOfRange(der, item.contentStart, oid.end);
        }
      }
      pos = item.end;
    }
    throw new GeneralSecurityException("EC PRIVATE KEY without a named curve in " + source);
  }

  /** One DER TLV header: tag, where the content starts and where the element ends. */
  private static final class Der {
    final int tag;
    final int contentStart;
    final int end;

    Der(byte[] b, int pos) throws GeneralSecurityException {
      if (pos + 2 > b.length) {
        throw new GeneralSecurityException("truncated DER");
      }
      tag = b[pos] & 0xff;
      int len = b[pos + 1] & 0xff;
      int p = pos + 2;
      if (len > 0x80) {
        int n = len & 0x7f;
        if (n > 3 || p + n > b.length) {
          throw new GeneralSecurityException("bad DER length");
        }
        len = 0;
        for (int i = 0; i < n; i++) {
          len = (len << 8) | (b[p++] & 0xff);
        }
      } else if (len == 0x80) {
        throw new GeneralSecurityException("indefinite DER length");
      }
      contentStart = p;
      end = p + len;
      if (end > b.length) {
        throw new GeneralSecurityException("truncated DER");
      }
    }
  }

  private static byte[] sequence(byte[] content) {
    return tlv(0x30, content);
  }

  private static byte[] tlv(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
    out.write(tag);
    int len = content.length;
    if (len < 0x80) {
      out.write(len);
    } else if (len < 0x100) {
      out.write(0x81);
      out.write(len);
    } else if (len < 0x10000) {
      out.write(0x82);
      out.write(len >> 8);
      out.write(len);
    } else {
      out.write(0x83);
      out.write(len >> 16);
      out.write(len >> 8);
      out.write(len);
    }
    out.writeBytes(content);
    return out.toByteArray();
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
