package dev.strand.internal.tls;

import java.lang.reflect.Method;
import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import io.netty.handler.ssl.ResumableX509ExtendedTrustManager;
import java.util.Arrays;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Delegates every check; when the server's chain is rejected, it attaches that chain to the
 * exception (as a suppressed {@link PeerChain}) so {@link TlsErrors} can say which certificate,
 * for which names, expiring when. The exception itself keeps its type: engines map it to alerts.
 *
 * <p>After the delegate accepts a chain it checks the configured {@link Pins}. Netty tells it of
 * resumed handshakes ({@link ResumableX509ExtendedTrustManager}, for both engines): those skip
 * chain verification, so the pins are checked again on the session's chain, and the engine is
 * remembered as resumed for {@code EventListener.tlsResumed}.
 */
final class RecordingTrustManager extends X509ExtendedTrustManager implements ResumableX509ExtendedTrustManager {
  /**
   * Each engine's rejection of its server's chain. The rejection makes the engine send an alert and
   * the server then closes; that close can reach the connection before the handshake failure does,
   * and must not be reported in its place. Weak keys: an engine's entry goes with the engine.
   */
  private static final Map<SSLEngine, CertificateException> REJECTIONS = Collections.synchronizedMap(new WeakHashMap<>());

  /**
   * Engines whose handshake resumed a session, and those sessions; weak, as {@link #REJECTIONS}.
   * The sessions too because Netty hands over the JDK's inner engine, which {@link #wrappedEngine}
   * cannot reach on the module path, while both engines give the same session object.
   */
  private static final Map<Object, Boolean> RESUMED = Collections.synchronizedMap(new WeakHashMap<>());

  private final X509ExtendedTrustManager delegate;
  private final Pins pins;

  RecordingTrustManager(X509ExtendedTrustManager delegate) {
    this(delegate, new Pins(Map.of()));
  }

  RecordingTrustManager(X509ExtendedTrustManager delegate, Pins pins) {
    this.delegate = delegate;
    this.pins = pins;
  }

  /** Whether {@code engine}'s (finished) handshake resumed an earlier session rather than verifying a chain. */
  static boolean resumed(SSLEngine engine) {
    if (RESUMED.containsKey(engine) || RESUMED.containsKey(engine.getSession())) {
      return true;
    }
    SSLEngine inner = wrappedEngine(engine);
    return inner != null && RESUMED.containsKey(inner);
  }

  @Override
  public void resumeServerTrusted(X509Certificate[] chain, SSLEngine engine) throws CertificateException {
    RESUMED.put(engine, Boolean.TRUE);
    RESUMED.put(engine.getSession(), Boolean.TRUE);
    checkPins(chain, engine);
  }

  @Override
  public void resumeClientTrusted(X509Certificate[] chain, SSLEngine engine) {
    // a client's trust manager never judges clients
  }

  private void checkPins(X509Certificate[] chain, SSLEngine engine) throws CertificateException {
    if (pins.isEmpty()) {
      return;
    }
    try {
      pins.check(engine == null ? null : engine.getPeerHost(), withAnchor(chain));
    } catch (CertificateException e) {
      CertificateException recorded = record(e, chain);
      if (engine != null) {
        REJECTIONS.put(engine, recorded);
      }
      throw recorded;
    }
  }

  /**
   * The chain as sent plus the trusted CA that issued its last certificate, when the server left
   * that root out (as most do): a pin on the root must match as OkHttp's on its cleaned chain does.
   */
  private X509Certificate[] withAnchor(X509Certificate[] chain) {
    if (chain == null || chain.length == 0) {
      return new X509Certificate[0];
    }
    X509Certificate last = chain[chain.length - 1];
    if (last.getSubjectX500Principal().equals(last.getIssuerX500Principal())) {
      return chain;
    }
    for (X509Certificate anchor : delegate.getAcceptedIssuers()) {
      if (anchor.getSubjectX500Principal().equals(last.getIssuerX500Principal())) {
        X509Certificate[] full = Arrays.copyOf(chain, chain.length + 1);
        full[chain.length] = anchor;
        return full;
      }
    }
    return chain;
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

  /**
   * The certificate failure this client found in {@code engine}'s handshake, or {@code null}. Netty
   * wraps the JDK's engine for ALPN, and the trust manager sees the inner one.
   */
  static CertificateException rejection(SSLEngine engine) {
    CertificateException e = REJECTIONS.get(engine);
    if (e == null) {
      SSLEngine inner = wrappedEngine(engine);
      e = inner == null ? null : REJECTIONS.get(inner);
    }
    return e;
  }

  /** The engine inside Netty's JDK wrapper ({@code JdkSslEngine.getWrappedEngine()}, a package-private type), or null. */
  private static SSLEngine wrappedEngine(SSLEngine engine) {
    for (Class<?> c = engine.getClass(); c != null && c != SSLEngine.class; c = c.getSuperclass()) {
      try {
        Method m = c.getDeclaredMethod("getWrappedEngine");
        m.setAccessible(true);
        return m.invoke(engine) instanceof SSLEngine inner ? inner : null;
      } catch (NoSuchMethodException notHere) {
        // look in the superclass
      } catch (ReflectiveOperationException | RuntimeException inaccessible) {
        return null;
      }
    }
    return null;
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    try {
      delegate.checkServerTrusted(chain, authType, engine);
    } catch (CertificateException e) {
      CertificateException recorded = record(e, chain);
      if (engine != null) {
        REJECTIONS.put(engine, recorded);
      }
      throw recorded;
    }
    checkPins(chain, engine);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    try {
      delegate.checkServerTrusted(chain, authType, socket);
    } catch (CertificateException e) {
      throw record(e, chain);
    }
    checkPins(chain, null);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    try {
      delegate.checkServerTrusted(chain, authType);
    } catch (CertificateException e) {
      throw record(e, chain);
    }
    checkPins(chain, null);
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
