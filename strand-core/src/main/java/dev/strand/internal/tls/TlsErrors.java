package dev.strand.internal.tls;

import dev.strand.Request;
import dev.strand.Tls;
import dev.strand.TlsException;
import dev.strand.TlsException.Reason;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;

/**
 * Turns what the JDK or OpenSSL engine threw into a {@link TlsException} whose reason code can
 * branch on and whose message says, in words, what went wrong and what to change.
 */
public final class TlsErrors {
  private static final Pattern CN = Pattern.compile("(?:^|,)CN=((?:\\\\.|[^,\\\\])*)");

  private TlsErrors() {}

  /** Whether {@code failure} (or a cause) comes from the TLS layer and should go through {@link #translate}. */
  public static boolean isTlsFailure(Throwable failure) {
    for (Throwable t : chain(failure)) {
      if (t instanceof SSLException || t instanceof CertificateException || t instanceof SslHandshakeTimeoutException) {
        return true;
      }
    }
    return false;
  }

  /**
   * The client's own rejection of the server's certificate in {@code engine}'s handshake, as a
   * {@link TlsException}, or {@code null} if it did not reject it. Checked first when a handshake
   * ends by a close: the close is the server's answer to that rejection, not the reason.
   */
  public static TlsException ownRejection(SSLEngine engine, String host, int port, Tls tls, Request request) {
    CertificateException rejected = RecordingTrustManager.rejection(engine);
    return rejected == null ? null : translate(rejected, host, port, tls, request);
  }

  /**
   * The {@link TlsException} for a failed handshake (or a TLS alert on an open connection).
   *
   * @param tls the settings in use, to say what was trusted; may be {@code null}
   * @param request the request that needed the connection; may be {@code null}
   */
  public static TlsException translate(Throwable failure, String host, int port, Tls tls, Request request) {
    if (failure instanceof TlsException e) {
      return e;
    }
    List<Throwable> all = chain(failure);
    X509Certificate[] peer = peerChain(all);
    String prefix = "TLS handshake with " + host + ":" + port + " failed: ";
    Pins.PinMismatchException pin = find(all, Pins.PinMismatchException.class);
    if (pin != null) {
      return new TlsException(Reason.PIN_MISMATCH, prefix + pin.getMessage(), request, failure);
    }

    for (Throwable t : all) {
      if (t instanceof SslHandshakeTimeoutException) {
        return new TlsException(Reason.HANDSHAKE_TIMEOUT, "TLS handshake with " + host + ":" + port
            + " timed out (" + t.getMessage() + "): the server accepted the connection but did not complete TLS",
            request, failure);
      }
    }
    if (find(all, CertificateExpiredException.class) != null || validatorReason(all, "EXPIRED")) {
      return new TlsException(Reason.EXPIRED, prefix + expired(peer, host), request, failure);
    }
    if (find(all, CertificateNotYetValidException.class) != null || validatorReason(all, "NOT_YET_VALID")) {
      return new TlsException(Reason.NOT_YET_VALID, prefix + notYetValid(peer, host), request, failure);
    }
    CertificateException local = find(all, CertificateException.class);
    if (local != null || peer != null) {
      String text = text(all);
      if (text.contains("no subject alternative") || text.contains("no name matching")) {
        return new TlsException(Reason.HOSTNAME_MISMATCH, prefix + mismatch(peer, host, local), request, failure);
      }
      if (text.contains("pkix path building failed") || text.contains("unable to find valid certification path")
          || text.contains("pkix path validation failed") || text.contains("certpathbuilder")
          || text.contains("unable to get local issuer") || text.contains("self signed")
          || text.contains("self-signed")) {
        return new TlsException(Reason.UNKNOWN_CA, prefix + unknownCa(peer, host, tls), request, failure);
      }
    }

    String alerts = text(all).replaceAll("[^a-z0-9]+", "_");
    if (alerts.contains("certificate_required") || alerts.contains("bad_certificate")
        || alerts.contains("unknown_ca") || alerts.contains("certificate_unknown")
        || alerts.contains("access_denied") || alerts.contains("unsupported_certificate")) {
      boolean presented = tls != null && (tls.clientCertificate() != null || tls.clientPkcs12() != null
          || tls.sslContext() != null);
      String why = presented
          ? "the server did not accept the configured client certificate (" + alertName(alerts) + "); check that "
              + "it is issued by a CA the server accepts (a certificate from another CA is not even sent) and is "
              + "meant for client authentication"
          : "the server requires a client certificate (" + alertName(alerts) + "); present one with "
              + "Tls.builder().clientCertificate(cert, key) or .clientPkcs12(file, password)";
      return new TlsException(Reason.CLIENT_CERT_REQUIRED, prefix + why, request, failure);
    }
    if (find(all, NotSslRecordException.class) != null || alerts.contains("unrecognized_ssl_message")
        || alerts.contains("wrong_version_number") || alerts.contains("plaintext_connection")) {
      return new TlsException(Reason.PROTOCOL, prefix + "the server did not answer in TLS (is it plain HTTP? "
          + "then use an http:// URL)", request, failure);
    }
    if (alerts.contains("protocol_version") || alerts.contains("no_appropriate_protocol")
        || alerts.contains("unsupported_protocol") || alerts.contains("no_shared_cipher")
        || alerts.contains("no_cipher_suites_in_common") || alerts.contains("handshake_failure")
        || alerts.contains("insufficient_security") || alerts.contains("no_common_signature")
        || alerts.contains("no_shared_group")) {
      String offered = tls == null ? "" : " (this client allows " + String.join(", ", tls.protocols()) + ")";
      return new TlsException(Reason.PROTOCOL, prefix + "no TLS protocol version or cipher suite in common" + offered
          + (alerts.contains("handshake_failure") ? ", or the server wants a client certificate" : "")
          + ": " + rootMessage(failure), request, failure);
    }
    if (find(all, java.nio.channels.ClosedChannelException.class) != null) {
      // Netty's stackless close has no message: the bare class name said nothing of what happened.
      return new TlsException(Reason.OTHER, prefix + "the connection was closed during the handshake, before the "
          + "server's answer (by the server, or by a proxy that opened the tunnel and then hung up)", request, failure);
    }
    return new TlsException(Reason.OTHER, prefix + rootMessage(failure), request, failure);
  }

  private static String unknownCa(X509Certificate[] peer, String host, Tls tls) {
    String trusted = trustDescription(tls);
    if (peer != null && peer.length == 1 && peer[0].getSubjectX500Principal().equals(peer[0].getIssuerX500Principal())) {
      return "certificate for " + host + " is self-signed (\"" + commonName(peer[0].getSubjectX500Principal().getName())
          + "\") and not in " + trusted + "; trust it with Tls.builder().trustPem(certFile)";
    }
    String issuer = peer == null || peer.length == 0 ? ""
        : " \"" + commonName(peer[peer.length - 1].getIssuerX500Principal().getName()) + "\"";
    return "certificate for " + host + " was signed by an unknown CA" + issuer + " (not in " + trusted
        + "); trust the CA with Tls.builder().trustPem(caFile)";
  }

  private static String trustDescription(Tls tls) {
    if (tls == null) {
      return "the trusted certificates";
    }
    if (tls.sslContext() != null) {
      return "the trust store of the configured SSLContext";
    }
    if (tls.trustPem().isEmpty()) {
      return "the system trust store";
    }
    String files = tls.trustPem().stream().map(Object::toString).collect(Collectors.joining(", "));
    return tls.trustSystem() ? "the system trust store nor " + files : files;
  }

  private static String mismatch(X509Certificate[] peer, String host, CertificateException local) {
    if (peer == null || peer.length == 0) {
      return "certificate does not match " + host + " (" + (local == null ? "?" : local.getMessage()) + ")";
    }
    List<String> names = names(peer[0]);
    return "certificate is for " + (names.isEmpty() ? "no host name" : String.join(", ", names))
        + ", not for " + host;
  }

  private static String expired(X509Certificate[] peer, String host) {
    X509Certificate bad = firstOutside(peer, true);
    return bad == null
        ? "certificate for " + host + " has expired"
        : describe(bad, peer, host) + " expired on " + bad.getNotAfter().toInstant();
  }

  private static String notYetValid(X509Certificate[] peer, String host) {
    X509Certificate bad = firstOutside(peer, false);
    return (bad == null
            ? "certificate for " + host + " is not valid yet"
            : describe(bad, peer, host) + " is not valid before " + bad.getNotBefore().toInstant())
        + " (is this machine's clock right?)";
  }

  private static String describe(X509Certificate c, X509Certificate[] peer, String host) {
    String cn = commonName(c.getSubjectX500Principal().getName());
    return c == peer[0] ? "certificate for " + host + " (\"" + cn + "\")" : "CA certificate \"" + cn + "\" in the chain";
  }

  private static X509Certificate firstOutside(X509Certificate[] peer, boolean expired) {
    if (peer == null) {
      return null;
    }
    Instant now = Instant.now();
    for (X509Certificate c : peer) {
      if (expired ? c.getNotAfter().toInstant().isBefore(now) : c.getNotBefore().toInstant().isAfter(now)) {
        return c;
      }
    }
    return null;
  }

  private static List<String> names(X509Certificate c) {
    List<String> out = new ArrayList<>();
    try {
      Collection<List<?>> sans = c.getSubjectAlternativeNames();
      if (sans != null) {
        for (List<?> san : sans) {
          int type = (Integer) san.get(0);
          if (type == 2 || type == 7) { // dNSName, iPAddress
            out.add(String.valueOf(san.get(1)));
          }
        }
      }
    } catch (CertificateParsingException ignored) {
      // fall back to the CN below
    }
    if (out.isEmpty()) {
      out.add(commonName(c.getSubjectX500Principal().getName()));
    }
    return out;
  }

  /** The CN of an RFC 2253 name ({@code X500Principal.getName()}), or the whole name if it has none. */
  static String commonName(String dn) {
    Matcher m = CN.matcher(dn);
    return m.find() ? m.group(1).replaceAll("\\\\(.)", "$1") : dn;
  }

  private static String alertName(String alerts) {
    for (String a : new String[] {"certificate_required", "bad_certificate", "unknown_ca", "certificate_unknown",
        "access_denied", "unsupported_certificate"}) {
      if (alerts.contains(a)) {
        return "alert " + a;
      }
    }
    return "alert";
  }

  private static boolean validatorReason(List<Throwable> all, String reason) {
    for (Throwable t : all) {
      if (t instanceof CertPathValidatorException v && v.getReason() instanceof Enum<?> r && r.name().equals(reason)) {
        return true;
      }
    }
    return false;
  }

  private static X509Certificate[] peerChain(List<Throwable> all) {
    for (Throwable t : all) {
      if (t instanceof RecordingTrustManager.PeerChain p) {
        return p.chain();
      }
    }
    return null;
  }

  private static <T extends Throwable> T find(List<Throwable> all, Class<T> type) {
    for (Throwable t : all) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }

  private static String text(List<Throwable> all) {
    StringBuilder sb = new StringBuilder();
    for (Throwable t : all) {
      sb.append(t.getClass().getSimpleName()).append(": ").append(t.getMessage()).append('\n');
    }
    return sb.toString().toLowerCase(Locale.ROOT);
  }

  private static String rootMessage(Throwable failure) {
    Throwable t = failure;
    String message = t.toString();
    while (t != null) {
      if (t.getMessage() != null) {
        message = t.getMessage();
      }
      t = t.getCause() == t ? null : t.getCause();
    }
    return message;
  }

  /** The failure, its causes and everything suppressed along the way, outermost first. */
  static List<Throwable> chain(Throwable failure) {
    List<Throwable> out = new ArrayList<>();
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    collect(failure, out, seen, 0);
    return out;
  }

  private static void collect(Throwable t, List<Throwable> out, Set<Throwable> seen, int depth) {
    if (t == null || depth > 32 || !seen.add(t)) {
      return;
    }
    out.add(t);
    collect(t.getCause(), out, seen, depth + 1);
    for (Throwable s : t.getSuppressed()) {
      collect(s, out, seen, depth + 1);
    }
  }
}
