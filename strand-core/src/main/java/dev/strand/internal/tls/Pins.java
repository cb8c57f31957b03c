package dev.strand.internal.tls;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Public-key pins by host pattern (OkHttp's {@code CertificatePinner} rules): a chain passes when
 * the SHA-256 of any certificate's SubjectPublicKeyInfo is among the pins of every pattern that
 * matches the host. Pure code: no engine, no I/O.
 */
public final class Pins {
  /** The pattern that applies to every host (curl's {@code --pinnedpubkey} has no host). */
  public static final String EVERY_HOST = "**";

  private final Map<String, List<String>> byPattern;

  public Pins(Map<String, List<String>> byPattern) {
    this.byPattern = Map.copyOf(byPattern);
  }

  public boolean isEmpty() {
    return byPattern.isEmpty();
  }

  /**
   * {@code pin} in the canonical {@code sha256/BASE64} form; accepts curl's {@code sha256//BASE64} too.
   *
   * @throws IllegalArgumentException if it is not a SHA-256 pin of 32 bytes in base64
   */
  public static String canonical(String pin) {
    if (pin == null || !pin.startsWith("sha256/")) {
      throw new IllegalArgumentException("a pin must look like sha256/BASE64 (or curl's sha256//BASE64): " + pin);
    }
    // A hash's base64 may itself start with '/', so "sha256//" alone does not mean curl's form: the
    // length does, as 32 bytes are always 44 base64 characters.
    boolean curlForm = pin.startsWith("sha256//") && pin.length() == "sha256//".length() + 44;
    String b64 = pin.substring(curlForm ? 8 : 7);
    byte[] hash;
    try {
      hash = Base64.getDecoder().decode(b64);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("a pin's hash is not base64: " + pin, e);
    }
    if (hash.length != 32) {
      throw new IllegalArgumentException("a sha256 pin has 32 bytes, not " + hash.length + ": " + pin);
    }
    return "sha256/" + Base64.getEncoder().encodeToString(hash);
  }

  /**
   * {@code pattern} checked and lower-cased: a host name, an IP literal, {@code *.example.com} (one
   * label more), {@code **.example.com} (any number of labels more, or none) or {@link #EVERY_HOST}.
   */
  public static String pattern(String host) {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("a pinned host is empty (use \"**\" for every host)");
    }
    String h = host.toLowerCase(Locale.ROOT);
    if (h.length() > 1 && h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1); // as in a URL; the engine knows the address without brackets
    }
    String rest = h.startsWith("**.") ? h.substring(3) : h.startsWith("*.") ? h.substring(2) : h;
    if (!h.equals(EVERY_HOST) && (rest.isEmpty() || rest.contains("*"))) {
      throw new IllegalArgumentException("a wildcard is allowed only as a leading \"*.\" or \"**.\": " + host);
    }
    return h;
  }

  static boolean matches(String pattern, String host) {
    if (pattern.equals(EVERY_HOST)) {
      return true;
    }
    String h = host.toLowerCase(Locale.ROOT);
    if (h.endsWith(".")) {
      h = h.substring(0, h.length() - 1);
    }
    if (pattern.startsWith("**.")) {
      String suffix = pattern.substring(3);
      return h.equals(suffix) || h.endsWith("." + suffix);
    }
    if (pattern.startsWith("*.")) {
      String suffix = pattern.substring(2);
      int dot = h.indexOf('.');
      return dot > 0 && h.substring(dot + 1).equals(suffix);
    }
    return h.equals(pattern);
  }

  /** The pins that apply to {@code host}: the union over all matching patterns; empty if none (no check). */
  public Set<String> forHost(String host) {
    Set<String> pins = new LinkedHashSet<>();
    if (host == null) {
      // No host known to the engine: only the every-host pins can apply.
      pins.addAll(byPattern.getOrDefault(EVERY_HOST, List.of()));
      return pins;
    }
    byPattern.forEach((pattern, p) -> {
      if (matches(pattern, host)) {
        pins.addAll(p);
      }
    });
    return pins;
  }

  /** The {@code sha256/BASE64} pin of {@code cert}'s public key. */
  public static String pinOf(X509Certificate cert) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(cert.getPublicKey().getEncoded());
      return "sha256/" + Base64.getEncoder().encodeToString(hash);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JDK", e);
    }
  }

  /**
   * Passes when no pin applies to {@code host} or one certificate of {@code chain} matches.
   *
   * @throws PinMismatchException otherwise, naming the host, the pins and the chain's own
   */
  public void check(String host, X509Certificate[] chain) throws PinMismatchException {
    Set<String> expected = forHost(host);
    if (expected.isEmpty()) {
      return;
    }
    List<String> actual = new ArrayList<>();
    for (X509Certificate c : chain) {
      String pin = pinOf(c);
      if (expected.contains(pin)) {
        return;
      }
      actual.add(pin + " (" + c.getSubjectX500Principal().getName() + ")");
    }
    throw new PinMismatchException(host, List.copyOf(expected), actual);
  }

  /** The server's chain is valid but no certificate in it has a pinned public key. */
  public static final class PinMismatchException extends CertificateException {
    private static final long serialVersionUID = 1L;

    PinMismatchException(String host, List<String> expected, List<String> actual) {
      super("certificate pinning failure for " + host + ": the chain's public keys are " + actual
          + ", none of them pinned for this host " + expected);
    }
  }
}
