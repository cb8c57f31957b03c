package dev.strand.internal.tls;

import dev.strand.Tls;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.CipherSuiteConverter;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Builds Netty client {@link SslContext}s from {@link Tls} settings, and caches them: a context
 * holds the parsed trust store and the session cache that makes resumption work, so every
 * connection of one configuration must share it.
 */
public final class TlsContexts {
  /** IANA names as they are, OpenSSL names (curl's) turned into them. */
  private static List<String> cipherSuites(List<String> names) {
    List<String> java = new ArrayList<>();
    for (String name : names) {
      String converted = name.startsWith("TLS_") || name.startsWith("SSL_") ? name : CipherSuiteConverter.toJava(name, "TLS");
      if (converted == null) {
        throw new IllegalArgumentException("unknown cipher suite \"" + name + "\"");
      }
      java.add(converted);
    }
    return java;
  }

  private static final int CACHE_SIZE = 32;
  private static final Map<CacheKey, TlsContext> CACHE = Collections.synchronizedMap(
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<CacheKey, TlsContext> eldest) {
          return size() > CACHE_SIZE;
        }
      });

  private record CacheKey(Tls tls, List<String> alpn) {}

  private TlsContexts() {}

  /**
   * The context for {@code tls} offering {@code alpn} (e.g. {@code ["h2", "http/1.1"]}, or empty
   * for no ALPN), built on first use and cached. Reads the files the settings name.
   *
   * @throws IllegalArgumentException if a named file is missing or unreadable, or a key is unusable
   * @throws IllegalStateException if {@link Tls.Engine#OPENSSL} is asked for but unavailable
   */
  public static TlsContext get(Tls tls, List<String> alpn) {
    CacheKey key = new CacheKey(tls, List.copyOf(alpn));
    TlsContext cached = CACHE.get(key);
    if (cached != null) {
      return cached;
    }
    TlsContext built = build(tls, key.alpn());
    TlsContext raced = CACHE.putIfAbsent(key, built);
    return raced != null ? raced : built;
  }

  /** Whether {@code engine}'s finished handshake resumed an earlier session (so verified no certificate chain). */
  public static boolean resumed(SSLEngine engine) {
    return RecordingTrustManager.resumed(engine);
  }

  /** Whether the OpenSSL engine can be used in this JVM. */
  public static boolean openSslAvailable() {
    return OpenSsl.isAvailable();
  }

  static TlsContext build(Tls tls, List<String> alpn) {
    SslProvider provider = provider(tls, alpn);
    String engine = provider == SslProvider.JDK ? "jdk" : "openssl";
    ApplicationProtocolConfig apn = alpn.isEmpty()
        ? ApplicationProtocolConfig.DISABLED
        : new ApplicationProtocolConfig(
            ApplicationProtocolConfig.Protocol.ALPN,
            // The only failure behaviours both engines support: no ALPN agreed means HTTP/1.1.
            ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
            ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
            alpn);
    String[] protocols = tls.protocols().toArray(String[]::new);
    if (tls.sslContext() != null) {
      SslContext ctx = new JdkSslContext(tls.sslContext(), true, null, IdentityCipherSuiteFilter.INSTANCE, apn,
          ClientAuth.NONE, protocols, false);
      return new TlsContext(ctx, engine, tls, alpn);
    }
    SslContextBuilder b = SslContextBuilder.forClient()
        .sslProvider(provider)
        .protocols(protocols)
        .applicationProtocolConfig(apn)
        // newHandler sets the algorithm per engine; the context default must not undo Tls.insecure().
        .endpointIdentificationAlgorithm(tls.verify() ? "HTTPS" : null);
    if (!tls.cipherSuites().isEmpty()) {
      b.ciphers(cipherSuites(tls.cipherSuites()), SupportedCipherSuiteFilter.INSTANCE);
    }
    try {
      b.trustManager(trustManager(tls));
      keyMaterial(tls, b);
      SslContext ctx = b.build();
      if (!tls.sessionResumption() && ctx.sessionContext() instanceof OpenSslSessionContext sessions) {
        sessions.setSessionCacheEnabled(false);
      }
      return new TlsContext(ctx, engine, tls, alpn);
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException("cannot set up TLS " + tls + ": " + e.getMessage(), e);
    }
  }

  private static SslProvider provider(Tls tls, List<String> alpn) {
    return switch (tls.engine()) {
      case JDK -> SslProvider.JDK;
      case OPENSSL -> {
        if (!OpenSsl.isAvailable()) {
          throw new IllegalStateException("Tls.Engine.OPENSSL requested but OpenSSL is not available "
              + "(put io.netty:netty-tcnative-boringssl-static with this platform's classifier on the class path)",
              OpenSsl.unavailabilityCause());
        }
        yield SslProvider.OPENSSL;
      }
      case AUTO -> tls.sslContext() == null && OpenSsl.isAvailable() && (alpn.isEmpty() || OpenSsl.isAlpnSupported())
          ? SslProvider.OPENSSL
          : SslProvider.JDK;
    };
  }

  /**
   * The trust manager {@code tls} verifies servers with: the system store and/or the PEM files it
   * names, wrapped so that {@link TlsErrors#ownRejection} can tell this client's verdict; insecure
   * accepts all. Also for a QUIC context, which is built apart from Netty's TCP ones.
   */
  public static TrustManager trustManager(Tls tls) throws GeneralSecurityException, IOException {
    Pins pins = new Pins(tls.pins());
    if (!tls.verify()) {
      TrustManager any = InsecureTrustManagerFactory.INSTANCE.getTrustManagers()[0];
      // Wrapped only for its resumption report and pins (curl checks --pinnedpubkey even with -k).
      return any instanceof X509ExtendedTrustManager x ? new RecordingTrustManager(x, pins) : any;
    }
    TrustManagerFactory tmf;
    if (tls.trustPem().isEmpty()) {
      tmf = SystemTrust.get().trustManagerFactory();
    } else {
      List<X509Certificate> anchors = new ArrayList<>();
      if (tls.trustSystem()) {
        anchors.addAll(SystemTrust.get().certificates());
      }
      for (Path pem : tls.trustPem()) {
        List<X509Certificate> certs = Pem.readCertificates(readable(pem, "trustPem"));
        if (certs.isEmpty()) {
          throw new GeneralSecurityException("no CERTIFICATE block in trustPem file " + pem);
        }
        anchors.addAll(certs);
      }
      tmf = SystemTrust.trustManagerFactory(anchors);
    }
    for (TrustManager tm : tmf.getTrustManagers()) {
      if (tm instanceof X509ExtendedTrustManager x) {
        return new RecordingTrustManager(x, pins);
      }
    }
    throw new GeneralSecurityException("no X509ExtendedTrustManager from " + tmf.getAlgorithm());
  }

  private static void keyMaterial(Tls tls, SslContextBuilder b) throws GeneralSecurityException, IOException {
    ClientKey key = clientKey(tls);
    if (key != null) {
      b.keyManager(key.key(), key.chain());
    }
  }

  /** A client certificate chain and its private key. */
  public record ClientKey(PrivateKey key, X509Certificate[] chain) {}

  /**
   * The client certificate {@code tls} names (PEM pair or PKCS#12), or {@code null} for none; also for
   * a QUIC context, which is built apart from Netty's TCP ones.
   */
  public static ClientKey clientKey(Tls tls) throws GeneralSecurityException, IOException {
    if (tls.clientCertificate() != null) {
      List<X509Certificate> chain = Pem.readCertificates(readable(tls.clientCertificate(), "clientCertificate"));
      if (chain.isEmpty()) {
        throw new GeneralSecurityException("no CERTIFICATE block in " + tls.clientCertificate());
      }
      PrivateKey key = Pem.readPrivateKey(readable(tls.clientKey(), "client key"));
      return new ClientKey(key, chain.toArray(X509Certificate[]::new));
    } else if (tls.clientPkcs12() != null) {
      char[] password = tls.clientPkcs12Password();
      try {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(readable(tls.clientPkcs12(), "clientPkcs12"))) {
          ks.load(in, password);
        }
        for (String alias : Collections.list(ks.aliases())) {
          if (ks.isKeyEntry(alias)) {
            var key = ks.getKey(alias, password);
            Certificate[] chain = ks.getCertificateChain(alias);
            if (key instanceof PrivateKey pk && chain != null && chain.length > 0) {
              return new ClientKey(pk, Arrays.copyOf(chain, chain.length, X509Certificate[].class));
            }
          }
        }
        throw new GeneralSecurityException("no private key with a certificate chain in " + tls.clientPkcs12());
      } finally {
        Arrays.fill(password, '\0');
      }
    }
    return null;
  }

  private static Path readable(Path p, String what) throws IOException {
    if (!Files.isReadable(p)) {
      throw new IOException(what + " file " + p + (Files.exists(p) ? " is not readable" : " does not exist"));
    }
    return p;
  }

  /**
   * A handler for {@code host:port} that verifies the host name ({@code "HTTPS"} endpoint
   * identification: DNS names, or IP subject alternative names for IP literals) and sends SNI for
   * host names only. Netty's default 10 s handshake timeout applies; set another on the result.
   */
  public static SslHandler newHandler(SslContext ctx, ByteBufAllocator alloc, String host, int port) {
    return newHandler(ctx, alloc, host, port, true);
  }

  static SslHandler newHandler(SslContext ctx, ByteBufAllocator alloc, String host, int port, boolean verifyHost) {
    String peer = stripBrackets(host);
    SslHandler handler = ctx.newHandler(alloc, peer, port);
    SSLEngine engine = handler.engine();
    SSLParameters params = engine.getSSLParameters();
    params.setEndpointIdentificationAlgorithm(verifyHost ? "HTTPS" : null);
    // The JDK omits SNI for dot-less names such as "localhost"; OpenSSL sends it. Be explicit.
    params.setServerNames(isIpLiteral(peer) ? List.of() : sniName(peer));
    engine.setSSLParameters(params);
    return handler;
  }

  private static List<SNIServerName> sniName(String host) {
    try {
      return List.of(new SNIHostName(host));
    } catch (IllegalArgumentException notDnsSyntax) {
      return List.of(); // e.g. an underscore: no valid SNI exists, the certificate check still runs
    }
  }

  static String stripBrackets(String host) {
    return host.length() > 1 && host.charAt(0) == '[' && host.charAt(host.length() - 1) == ']'
        ? host.substring(1, host.length() - 1)
        : host;
  }

  static boolean isIpLiteral(String host) {
    if (host.indexOf(':') >= 0) {
      return true; // IPv6: host names never contain colons
    }
    String[] parts = host.split("\\.", -1);
    if (parts.length != 4) {
      return false;
    }
    for (String p : parts) {
      if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(Character::isDigit) || Integer.parseInt(p) > 255) {
        return false;
      }
    }
    return true;
  }
}
