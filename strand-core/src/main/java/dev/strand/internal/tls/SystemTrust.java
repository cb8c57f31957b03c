package dev.strand.internal.tls;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * The CA certificates "the system" trusts: {@code SSL_CERT_FILE} and {@code SSL_CERT_DIR} when set
 * (as OpenSSL, curl and httpx read them), else the distribution's bundle, in both cases merged with
 * the JDK's default trust store ({@code cacerts}, or {@code javax.net.ssl.trustStore}) and
 * deduplicated. An image without any bundle therefore still trusts the JDK's CAs.
 *
 * <p>Loading parses a few hundred certificates, so {@link #get()} does it once, lazily, and caches
 * the result for the JVM's life.
 */
public final class SystemTrust {
  /** Distribution bundles, relative to the file-system root; the first that exists is used. */
  static final List<String> BUNDLES = List.of(
      "etc/ssl/certs/ca-certificates.crt", // Debian, Ubuntu, Alpine, Gentoo, Arch
      "etc/pki/tls/certs/ca-bundle.crt", // Fedora, RHEL 6
      "etc/ssl/ca-bundle.pem", // openSUSE
      "etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", // RHEL 7+, CentOS
      "etc/ssl/cert.pem"); // Alpine, macOS, BSD

  private static final System.Logger LOG = System.getLogger("dev.strand.tls");
  // c_rehash links (5d3f8e2a.0) and the usual certificate extensions.
  private static final Pattern CERT_FILE = Pattern.compile("(?i)[0-9a-f]{8}\\.[0-9]+|.*\\.(pem|crt|cer)");

  /** Where some of the certificates came from, and how many that source held (before deduplication). */
  public record Source(String name, int certificates) {
    @Override
    public String toString() {
      return name + " (" + certificates + ")";
    }
  }

  private final List<X509Certificate> certificates;
  private final List<Source> sources;
  private volatile TrustManagerFactory trustManagerFactory;

  private SystemTrust(List<X509Certificate> certificates, List<Source> sources) {
    this.certificates = List.copyOf(certificates);
    this.sources = List.copyOf(sources);
  }

  private static final class Holder {
    static final SystemTrust INSTANCE = load(System.getenv(), Path.of("/"), SystemTrust::jdkDefault);
  }

  /** The trust of this JVM's environment, loaded on first use. */
  public static SystemTrust get() {
    return Holder.INSTANCE;
  }

  /**
   * Loads trust from an explicit environment and file-system root (tests pass fakes).
   *
   * @param jdk the JDK's trusted certificates ({@link #jdkDefault()} outside tests)
   */
  public static SystemTrust load(Map<String, String> env, Path root, Supplier<List<X509Certificate>> jdk) {
    long start = System.nanoTime();
    Map<String, X509Certificate> unique = new LinkedHashMap<>();
    List<Source> sources = new ArrayList<>();
    boolean fromEnv = false;

    String certFile = env.get("SSL_CERT_FILE");
    if (certFile != null && !certFile.isBlank()) {
      Path file = Path.of(certFile);
      if (Files.isRegularFile(file)) {
        sources.add(new Source("SSL_CERT_FILE=" + file, addFile(file, unique)));
        fromEnv = true;
      } else {
        LOG.log(Level.DEBUG, "SSL_CERT_FILE={0} is not a file: ignored", certFile);
      }
    }
    String certDir = env.get("SSL_CERT_DIR");
    if (certDir != null && !certDir.isBlank()) {
      for (String dir : certDir.split(":")) {
        Path d = Path.of(dir);
        if (!dir.isEmpty() && Files.isDirectory(d)) {
          sources.add(new Source("SSL_CERT_DIR=" + d, addDirectory(d, unique)));
          fromEnv = true;
        } else {
          LOG.log(Level.DEBUG, "SSL_CERT_DIR entry {0} is not a directory: ignored", dir);
        }
      }
    }
    if (!fromEnv) {
      for (String bundle : BUNDLES) {
        Path file = root.resolve(bundle);
        if (Files.isRegularFile(file)) {
          sources.add(new Source(file.toString(), addFile(file, unique)));
          break;
        }
      }
    }
    List<X509Certificate> jdkCerts = jdk.get();
    for (X509Certificate c : jdkCerts) {
      unique.putIfAbsent(key(c), c);
    }
    sources.add(new Source("JDK cacerts", jdkCerts.size()));

    SystemTrust trust = new SystemTrust(new ArrayList<>(unique.values()), sources);
    LOG.log(Level.DEBUG, "system trust: {0} CA certificates from {1} in {2} ms",
        unique.size(), sources, (System.nanoTime() - start) / 1_000_000);
    return trust;
  }

  /** Deduplicated CA certificates of all sources. */
  public List<X509Certificate> certificates() {
    return certificates;
  }

  /** The sources used, in the order they were read; the JDK's store is always last. */
  public List<Source> sources() {
    return sources;
  }

  /** A PKIX trust manager factory over {@link #certificates()}, built once. */
  public TrustManagerFactory trustManagerFactory() throws GeneralSecurityException {
    TrustManagerFactory tmf = trustManagerFactory;
    if (tmf == null) {
      synchronized (this) {
        tmf = trustManagerFactory;
        if (tmf == null) {
          tmf = trustManagerFactory(certificates);
          trustManagerFactory = tmf;
        }
      }
    }
    return tmf;
  }

  /** A PKIX trust manager factory trusting exactly {@code anchors}. */
  static TrustManagerFactory trustManagerFactory(List<X509Certificate> anchors) throws GeneralSecurityException {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try {
      ks.load(null, null);
    } catch (IOException impossible) {
      throw new GeneralSecurityException(impossible);
    }
    int i = 0;
    for (X509Certificate c : anchors) {
      ks.setCertificateEntry("ca-" + i++, c);
    }
    TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
    tmf.init(ks);
    return tmf;
  }

  /** The JDK's default trust: {@code javax.net.ssl.trustStore} if set, else {@code jssecacerts}/{@code cacerts}. */
  public static List<X509Certificate> jdkDefault() {
    try {
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init((KeyStore) null);
      for (TrustManager tm : tmf.getTrustManagers()) {
        if (tm instanceof X509TrustManager x) {
          return List.of(x.getAcceptedIssuers());
        }
      }
    } catch (GeneralSecurityException e) {
      LOG.log(Level.DEBUG, "JDK trust store unreadable: " + e);
    }
    return List.of();
  }

  private static int addFile(Path file, Map<String, X509Certificate> unique) {
    try {
      List<X509Certificate> certs = Pem.readCertificates(file);
      for (X509Certificate c : certs) {
        unique.putIfAbsent(key(c), c);
      }
      return certs.size();
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      LOG.log(Level.DEBUG, "skipping unreadable certificate file {0}: {1}", file, e.toString());
      return 0;
    }
  }

  private static int addDirectory(Path dir, Map<String, X509Certificate> unique) {
    int count = 0;
    Set<Path> seen = new HashSet<>(); // hash links point at files already read
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path f : files) {
        if (CERT_FILE.matcher(f.getFileName().toString()).matches() && Files.isRegularFile(f)) {
          try {
            if (seen.add(f.toRealPath())) {
              count += addFile(f, unique);
            }
          } catch (IOException e) {
            LOG.log(Level.DEBUG, "skipping {0}: {1}", f, e.toString());
          }
        }
      }
    } catch (IOException e) {
      LOG.log(Level.DEBUG, "cannot list {0}: {1}", dir, e.toString());
    }
    return count;
  }

  private static String key(X509Certificate c) {
    try {
      return Base64.getEncoder().encodeToString(c.getEncoded());
    } catch (CertificateEncodingException e) {
      return c.getSubjectX500Principal() + "|" + c.getSerialNumber();
    }
  }
}
