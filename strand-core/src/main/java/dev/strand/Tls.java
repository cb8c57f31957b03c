package dev.strand;

import dev.strand.internal.tls.InsecureWarning;
import dev.strand.internal.tls.Pins;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * How a client speaks TLS to {@code https} origins: whom it trusts, which certificate it presents,
 * which protocol versions it allows and which TLS implementation runs the handshake. Immutable;
 * derive variants with {@link #toBuilder()}.
 *
 * <p>The default, {@link #system()}, verifies the server's certificate chain and host name against
 * the operating system's trust store ({@code SSL_CERT_FILE} / {@code SSL_CERT_DIR} when set, else
 * the distribution's CA bundle) merged with the JDK's {@code cacerts}.
 *
 * {@snippet :
 * Tls tls = Tls.builder()
 *     .trustPem(Path.of("/etc/myapp/internal-ca.pem"))       // in addition to the system CAs
 *     .clientCertificate(Path.of("client.pem"), Path.of("client.key"))
 *     .protocols("TLSv1.3")
 *     .handshakeTimeout(Duration.ofSeconds(3))
 *     .build();
 * }
 *
 * <p>Verification failures surface as {@link TlsException} with a {@link TlsException.Reason}.
 */
public final class Tls {
  /** Which TLS implementation runs the handshake. */
  public enum Engine {
    /** OpenSSL (BoringSSL via {@code netty-tcnative-boringssl-static}) when it is on the class path, else the JDK. */
    AUTO,
    /** The JDK's own TLS ({@code SSLEngine}). */
    JDK,
    /** OpenSSL through netty-tcnative; building a client fails when it is not available. */
    OPENSSL
  }

  /**
   * Named sets of protocol versions and cipher suites, as OkHttp's {@code ConnectionSpec}s, applied
   * with {@link Builder#profile}. Suites an engine lacks are left out of its offer.
   *
   * {@snippet :
   * Tls modern = Tls.builder().profile(Tls.Profile.MODERN).build();
   * }
   */
  public enum Profile {
    /**
     * TLS 1.3, and TLS 1.2 with forward-secret AEAD suites only (ECDHE with AES-GCM or
     * ChaCha20-Poly1305): no CBC, no static RSA key exchange.
     */
    MODERN(List.of("TLSv1.3", "TLSv1.2"), List.of(
        "TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
        "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256")),
    /**
     * {@link #MODERN} and, after it, TLS 1.2's older suites that servers still pick: ECDHE with
     * AES-CBC, and RSA key exchange with AES (as OkHttp's {@code COMPATIBLE_TLS}).
     */
    COMPATIBLE(List.of("TLSv1.3", "TLSv1.2"), List.of(
        "TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
        "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
        "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
        "TLS_RSA_WITH_AES_128_GCM_SHA256", "TLS_RSA_WITH_AES_256_GCM_SHA384",
        "TLS_RSA_WITH_AES_128_CBC_SHA", "TLS_RSA_WITH_AES_256_CBC_SHA"));

    private final List<String> protocols;
    private final List<String> cipherSuites;

    Profile(List<String> protocols, List<String> cipherSuites) {
      this.protocols = protocols;
      this.cipherSuites = cipherSuites;
    }

    /** The protocol versions, most preferred first. */
    public List<String> protocols() {
      return protocols;
    }

    /** The cipher suites by IANA name, most preferred first. */
    public List<String> cipherSuites() {
      return cipherSuites;
    }
  }

  private static final List<String> DEFAULT_PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");
  private static final Tls SYSTEM = builder().build();

  private final boolean verify;
  private final boolean trustSystem;
  private final List<Path> trustPem;
  private final SSLContext sslContext;
  private final Path clientCertificate;
  private final Path clientKey;
  private final Path clientPkcs12;
  private final char[] clientPkcs12Password;
  private final List<String> protocols;
  private final List<String> cipherSuites;
  private final Engine engine;
  private final Duration handshakeTimeout;
  private final boolean sessionResumption;
  private final Map<String, List<String>> pins;

  private Tls(Builder b) {
    this.verify = b.verify;
    this.trustSystem = b.trustSystem;
    this.trustPem = List.copyOf(b.trustPem);
    this.sslContext = b.sslContext;
    this.clientCertificate = b.clientCertificate;
    this.clientKey = b.clientKey;
    this.clientPkcs12 = b.clientPkcs12;
    this.clientPkcs12Password = b.clientPkcs12Password == null ? null : b.clientPkcs12Password.clone();
    this.protocols = b.protocols;
    this.cipherSuites = b.cipherSuites;
    this.engine = b.engine;
    this.handshakeTimeout = b.handshakeTimeout;
    this.sessionResumption = b.sessionResumption;
    Map<String, List<String>> p = new LinkedHashMap<>();
    b.pins.forEach((host, set) -> p.put(host, List.copyOf(set)));
    this.pins = Collections.unmodifiableMap(p);
  }

  /** Verify chain and host name against the system trust store; TLS 1.3 and 1.2; engine {@link Engine#AUTO}. */
  public static Tls system() {
    return SYSTEM;
  }

  /**
   * <b>No verification at all</b>: any certificate, for any host name, is accepted, so anyone on the
   * path can read and alter the traffic. For tests and throw-away tools only. The first call in a
   * JVM logs a {@code WARNING} on the {@code System.Logger} named {@code "dev.strand.tls"}.
   */
  public static Tls insecure() {
    InsecureWarning.GLOBAL.warn();
    Builder b = builder();
    b.verify = false;
    return b.build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.verify = verify;
    b.trustSystem = trustSystem;
    b.trustPem.addAll(trustPem);
    b.sslContext = sslContext;
    b.clientCertificate = clientCertificate;
    b.clientKey = clientKey;
    b.clientPkcs12 = clientPkcs12;
    b.clientPkcs12Password = clientPkcs12Password == null ? null : clientPkcs12Password.clone();
    b.protocols = protocols;
    b.cipherSuites = cipherSuites;
    b.engine = engine;
    b.handshakeTimeout = handshakeTimeout;
    b.sessionResumption = sessionResumption;
    pins.forEach((host, list) -> b.pins.put(host, new LinkedHashSet<>(list)));
    return b;
  }

  /** False only for {@link #insecure()} (and builders derived from it). */
  public boolean verify() {
    return verify;
  }

  /** Whether the system trust store is trusted (default true). */
  public boolean trustSystem() {
    return trustSystem;
  }

  /** Extra CA certificate files (PEM), trusted in addition to, or instead of, the system store. */
  public List<Path> trustPem() {
    return trustPem;
  }

  /** The user's own JDK context, which then decides trust and client keys; {@code null} if none. */
  public SSLContext sslContext() {
    return sslContext;
  }

  /** Client certificate chain (PEM) for mutual TLS, or {@code null}. */
  public Path clientCertificate() {
    return clientCertificate;
  }

  /** Private key (PEM: PKCS#8, PKCS#1 RSA or SEC1 EC) of {@link #clientCertificate()}, or {@code null}. */
  public Path clientKey() {
    return clientKey;
  }

  /** Client key and certificate as one PKCS#12 file, or {@code null}. */
  public Path clientPkcs12() {
    return clientPkcs12;
  }

  /** A copy of the PKCS#12 password, or {@code null}. */
  public char[] clientPkcs12Password() {
    return clientPkcs12Password == null ? null : clientPkcs12Password.clone();
  }

  /** Allowed protocol versions, most preferred first (default {@code TLSv1.3, TLSv1.2}). */
  public List<String> protocols() {
    return protocols;
  }

  /** The cipher suites allowed, as given to {@link Builder#cipherSuites}; empty for the engine's defaults. */
  public List<String> cipherSuites() {
    return cipherSuites;
  }

  public Engine engine() {
    return engine;
  }

  /** Longest TLS handshake; {@code null} (the default) means the connect timeout bounds it. */
  public Duration handshakeTimeout() {
    return handshakeTimeout;
  }

  /** Whether a new connection may resume an earlier one's session; see {@link Builder#sessionResumption}. */
  public boolean sessionResumption() {
    return sessionResumption;
  }

  /**
   * The public-key pins by host pattern ({@code "**"} for every host), each pin as
   * {@code sha256/BASE64}; empty (the default) for no pinning. See {@link Builder#pin}.
   */
  public Map<String, List<String>> pins() {
    return pins;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Tls t
        && verify == t.verify
        && trustSystem == t.trustSystem
        && trustPem.equals(t.trustPem)
        && sslContext == t.sslContext
        && Objects.equals(clientCertificate, t.clientCertificate)
        && Objects.equals(clientKey, t.clientKey)
        && Objects.equals(clientPkcs12, t.clientPkcs12)
        && Arrays.equals(clientPkcs12Password, t.clientPkcs12Password)
        && protocols.equals(t.protocols)
        && cipherSuites.equals(t.cipherSuites)
        && engine == t.engine
        && Objects.equals(handshakeTimeout, t.handshakeTimeout)
        && sessionResumption == t.sessionResumption
        && pins.equals(t.pins);
  }

  @Override
  public int hashCode() {
    return Objects.hash(verify, trustSystem, trustPem, System.identityHashCode(sslContext), clientCertificate,
        clientKey, clientPkcs12, Arrays.hashCode(clientPkcs12Password), protocols, cipherSuites, engine, handshakeTimeout,
        sessionResumption, pins);
  }

  /** Never shows the password. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("Tls[");
    if (!verify) {
      sb.append("INSECURE, ");
    } else if (sslContext != null) {
      sb.append("sslContext=").append(sslContext.getProtocol()).append(", ");
    } else {
      sb.append("trustSystem=").append(trustSystem).append(", ");
      if (!trustPem.isEmpty()) {
        sb.append("trustPem=").append(trustPem).append(", ");
      }
    }
    if (clientCertificate != null) {
      sb.append("clientCertificate=").append(clientCertificate).append(", ");
    }
    if (clientPkcs12 != null) {
      sb.append("clientPkcs12=").append(clientPkcs12).append(", ");
    }
    sb.append("protocols=").append(protocols);
    if (!cipherSuites.isEmpty()) {
      sb.append(", cipherSuites=").append(cipherSuites);
    }
    sb.append(", engine=").append(engine);
    if (handshakeTimeout != null) {
      sb.append(", handshakeTimeout=").append(handshakeTimeout);
    }
    if (!sessionResumption) {
      sb.append(", sessionResumption=false");
    }
    if (!pins.isEmpty()) {
      sb.append(", pins=").append(pins);
    }
    return sb.append(']').toString();
  }

  /** Configures a {@link Tls}. Files are read when a client is built, not here. */
  public static final class Builder {
    private boolean verify = true;
    private boolean trustSystem = true;
    private final List<Path> trustPem = new ArrayList<>();
    private SSLContext sslContext;
    private Path clientCertificate;
    private Path clientKey;
    private Path clientPkcs12;
    private char[] clientPkcs12Password;
    private List<String> protocols = DEFAULT_PROTOCOLS;
    private List<String> cipherSuites = List.of();
    private Engine engine = Engine.AUTO;
    private Duration handshakeTimeout;
    private boolean sessionResumption = true;
    private final Map<String, LinkedHashSet<String>> pins = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Accept a server for {@code host} only if a certificate of its verified chain (leaf,
     * intermediate or the trusted root) has one of these public keys, as OkHttp's
     * {@code CertificatePinner} and curl's {@code --pinnedpubkey}. A pin is the SHA-256 of the
     * certificate's SubjectPublicKeyInfo in base64: {@code sha256/BASE64} (curl's
     * {@code sha256//BASE64} is accepted too). Calls add up; when several patterns match a host, any
     * of their pins will do. A mismatch fails the handshake with {@link TlsException} reason
     * {@link TlsException.Reason#PIN_MISMATCH}, whose message lists the chain's own pins.
     *
     * <p>{@code host} is a name or IP literal as in the URL, {@code *.example.com} (exactly one label
     * more: {@code a.example.com}, not {@code example.com} nor {@code a.b.example.com}),
     * {@code **.example.com} (any number of labels more, or none), or {@code "**"} for every host.
     *
     * {@snippet :
     * Tls pinned = Tls.builder()
     *     .pin("**.example.com", "sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",  // current key
     *                            "sha256/BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB=") // backup key
     *     .build();
     * }
     *
     * @throws IllegalArgumentException if a pin is not a SHA-256 pin, or a wildcard is not leading
     */
    public Builder pin(String host, String... pins) {
      String pattern = Pins.pattern(host);
      if (pins.length == 0) {
        throw new IllegalArgumentException("pin(\"" + host + "\") needs at least one pin");
      }
      LinkedHashSet<String> set = this.pins.computeIfAbsent(pattern, h -> new LinkedHashSet<>());
      for (String p : pins) {
        set.add(Pins.canonical(p));
      }
      return this;
    }

    /** Also trust the CA certificates in these PEM files (each may hold several). */
    public Builder trustPem(Path... caFiles) {
      for (Path p : caFiles) {
        trustPem.add(Objects.requireNonNull(p, "caFile"));
      }
      return this;
    }

    /** Trust the system store (default true); {@code false} with {@link #trustPem} trusts only those files. */
    public Builder trustSystem(boolean trust) {
      this.trustSystem = trust;
      return this;
    }

    /**
     * Use this JDK context for trust and client keys (it excludes {@link #trustPem}, client
     * certificates and the OpenSSL engine). Host names are still verified.
     */
    public Builder sslContext(SSLContext context) {
      this.sslContext = Objects.requireNonNull(context, "context");
      return this;
    }

    /** Present this certificate chain (PEM) and private key (PEM, unencrypted) when the server asks. */
    public Builder clientCertificate(Path certPem, Path keyPem) {
      this.clientCertificate = Objects.requireNonNull(certPem, "certPem");
      this.clientKey = Objects.requireNonNull(keyPem, "keyPem");
      return this;
    }

    /** Present the key and certificate in this PKCS#12 file when the server asks. */
    public Builder clientPkcs12(Path p12, char[] password) {
      this.clientPkcs12 = Objects.requireNonNull(p12, "p12");
      this.clientPkcs12Password = Objects.requireNonNull(password, "password").clone();
      return this;
    }

    /** Allowed protocol versions, e.g. {@code "TLSv1.3", "TLSv1.2"}. */
    public Builder protocols(String... protocols) {
      if (protocols.length == 0) {
        throw new IllegalArgumentException("at least one protocol is required");
      }
      for (String p : protocols) {
        if (!p.startsWith("TLSv1.")) {
          throw new IllegalArgumentException("unknown TLS protocol \"" + p + "\" (expected e.g. TLSv1.3, TLSv1.2)");
        }
      }
      this.protocols = List.of(protocols);
      return this;
    }

    /**
     * The cipher suites allowed, most preferred first (default: the engine's own list), by their IANA
     * names ({@code TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256}, {@code TLS_AES_128_GCM_SHA256}) or OpenSSL's
     * ({@code ECDHE-RSA-AES128-GCM-SHA256}, as curl's {@code --ciphers} takes them). A suite the engine
     * does not know is left out; none known fails the handshake's set-up with {@link IllegalArgumentException}.
     *
     * {@snippet :
     * Tls strict = Tls.builder().protocols("TLSv1.2").cipherSuites("ECDHE-ECDSA-AES256-GCM-SHA384").build();
     * }
     */
    public Builder cipherSuites(String... suites) {
      for (String s : suites) {
        if (s == null || s.isBlank()) {
          throw new IllegalArgumentException("a cipher suite name is empty");
        }
      }
      this.cipherSuites = List.of(suites);
      return this;
    }

    /**
     * The protocol versions and cipher suites of {@code profile}: the same as calling
     * {@link #protocols} and {@link #cipherSuites} with its lists (a later call of either replaces
     * that part).
     */
    public Builder profile(Profile profile) {
      this.protocols = profile.protocols();
      this.cipherSuites = profile.cipherSuites();
      return this;
    }

    public Builder engine(Engine engine) {
      this.engine = Objects.requireNonNull(engine, "engine");
      return this;
    }

    /** Longest TLS handshake; {@code null} leaves it to the connect timeout. */
    public Builder handshakeTimeout(Duration timeout) {
      if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
        throw new IllegalArgumentException("handshakeTimeout must be positive: " + timeout);
      }
      this.handshakeTimeout = timeout;
      return this;
    }

    /**
     * Whether a new connection to an origin may resume the TLS session of an earlier one (default
     * {@code true}): the server then skips its certificate chain, and under TLS 1.2 the handshake
     * takes one round trip instead of two. {@code false} makes every handshake a full one, as curl's
     * {@code --no-sessionid}: for servers whose session cache misbehaves, or to measure the cost.
     */
    public Builder sessionResumption(boolean resume) {
      this.sessionResumption = resume;
      return this;
    }

    /**
     * @throws IllegalStateException if the settings contradict each other (an {@code SSLContext}
     *     together with PEM trust, client keys or pins; two kinds of client key; nothing trusted)
     */
    public Tls build() {
      if (sslContext != null) {
        if (!trustPem.isEmpty() || clientCertificate != null || clientPkcs12 != null) {
          throw new IllegalStateException(
              "sslContext(...) decides trust and client keys itself: drop trustPem/clientCertificate/clientPkcs12");
        }
        if (engine == Engine.OPENSSL) {
          throw new IllegalStateException("a JDK SSLContext runs only on Engine.JDK (or AUTO)");
        }
        if (!pins.isEmpty()) {
          // Its trust managers are the user's: there is no place to check pins in.
          throw new IllegalStateException("pin(...) needs Strand's own trust checks: drop sslContext(...)");
        }
      }
      if (clientCertificate != null && clientPkcs12 != null) {
        throw new IllegalStateException("choose one of clientCertificate(...) and clientPkcs12(...)");
      }
      if (verify && sslContext == null && !trustSystem && trustPem.isEmpty()) {
        throw new IllegalStateException("trustSystem(false) needs trustPem(...): nothing would be trusted");
      }
      return new Tls(this);
    }
  }
}
