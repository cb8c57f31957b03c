package dev.strand.bench.clients;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** An {@link SSLContext} that trusts exactly the bench's CA, with full verification (no trust-all). */
public final class Trust {

  private Trust() {
  }

  public static SSLContext sslContext(Path caPem) {
    try {
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, new javax.net.ssl.TrustManager[] {trustManager(caPem)}, null);
      return ctx;
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException("cannot build an SSLContext for " + caPem, e);
    }
  }

  public static javax.net.ssl.X509TrustManager trustManager(Path caPem) {
    try {
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(keyStore(caPem));
      return (javax.net.ssl.X509TrustManager) tmf.getTrustManagers()[0];
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException("cannot load CA " + caPem, e);
    }
  }

  /** A trust store holding the certificates of {@code caPem}, for clients that take one rather than an SSLContext. */
  public static KeyStore keyStore(Path caPem) {
    try {
      KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
      ks.load(null, null);
      int i = 0;
      try (InputStream in = Files.newInputStream(caPem)) {
        for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
          ks.setCertificateEntry("ca" + i++, c);
        }
      }
      return ks;
    } catch (Exception e) {
      throw new IllegalStateException("cannot load CA " + caPem, e);
    }
  }
}
