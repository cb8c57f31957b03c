package dev.strand.internal.tls;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Delegates every check; when the server's chain is rejected, it attaches that chain to the
 * exception (as a suppressed {@link PeerChain}) so {@link TlsErrors} can say which certificate,
 * for which names, expiring when. The exception itself keeps its type: engines map it to alerts.
 */
final class RecordingTrustManager extends X509ExtendedTrustManager {
  private final X509ExtendedTrustManager delegate;

  RecordingTrustManager(X509ExtendedTrustManager delegate) {
    this.delegate = delegate;
  }

  /** The rejected chain, carried as a suppressed exception. */
  static final class PeerChain extends Exception {
    private final transient X509Certificate[] chain;

    PeerChain(X509Certificate[] chain) {
      super("server certificate chain", null, false, false);
      this.chain = chain.clone();
    }

    X509Certificate[] chain() {
      return chain.clone();
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    try {
      delegate.checkServerTrusted(chain, authType, engine);
    } catch (CertificateException e) {
      throw record(e, chain);
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    try {
      delegate.checkServerTrusted(chain, authType, socket);
    } catch (CertificateException e) {
      throw record(e, chain);
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    try {
      delegate.checkServerTrusted(chain, authType);
    } catch (CertificateException e) {
      throw record(e, chain);
    }
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    delegate.checkClientTrusted(chain, authType, engine);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    delegate.checkClientTrusted(chain, authType, socket);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    delegate.checkClientTrusted(chain, authType);
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return delegate.getAcceptedIssuers();
  }

  private static CertificateException record(CertificateException e, X509Certificate[] chain) {
    if (chain != null && chain.length > 0) {
      e.addSuppressed(new PeerChain(chain));
    }
    return e;
  }
}
