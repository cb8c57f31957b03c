package dev.strand.cli;

import dev.strand.ConnectException;
import dev.strand.CallTimeoutException;
import dev.strand.ConnectTimeoutException;
import dev.strand.HttpException;
import dev.strand.HttpStatusException;
import dev.strand.InvalidUrlException;
import dev.strand.PoolTimeoutException;
import dev.strand.ProtocolException;
import dev.strand.ReadTimeoutException;
import dev.strand.Request;
import dev.strand.TimeoutException;
import dev.strand.TlsException;
import dev.strand.TooManyRedirectsException;
import dev.strand.TransportException;
import dev.strand.WebSocketHandshakeException;
import dev.strand.WriteTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.security.cert.CertificateException;
import java.util.Locale;
import javax.net.ssl.SSLHandshakeException;

/** Turns a failure into curl's exit code and one line for stderr. Pure: no I/O. */
final class Failures {
  static final int OK = 0;
  static final int USAGE = 2;
  static final int BAD_URL = 3;
  static final int RESOLVE = 6;
  static final int CONNECT = 7;
  static final int HTTP_ERROR = 22;
  static final int WRITE_ERROR = 23;
  static final int READ_ERROR = 26;
  /** curl's CURLE_RANGE_ERROR: -C asked to resume and the server sent the whole resource. */
  static final int RANGE_ERROR = 33;
  static final int TIMEOUT = 28;
  static final int TLS_HANDSHAKE = 35;
  static final int TOO_MANY_REDIRECTS = 47;
  static final int EMPTY_REPLY = 52;
  static final int RECEIVE_ERROR = 56;
  static final int CERTIFICATE = 60;
  /** curl's CURLE_SSL_PINNEDPUBKEYNOTMATCH: --pinnedpubkey did not match. */
  static final int PINNED_PUBKEY = 90;
  static final int INTERNAL = 1;

  /** An exit code and the line to print after {@code "strand: "}. */
  record Failure(int exitCode, String message) {}

  private Failures() {}

  /**
   * @param connectSeconds the connect timeout in force, for the message
   * @param readSeconds the other phases' timeout in force, for the message
   */
  static Failure of(Throwable t, double connectSeconds, double readSeconds) {
    if (t instanceof HttpException e) {
      return ofHttp(e, connectSeconds, readSeconds);
    }
    String what = t.getMessage() == null ? t.getClass().getSimpleName() : t.getClass().getSimpleName() + ": " + t.getMessage();
    return new Failure(INTERNAL, "internal error: " + what);
  }

  private static Failure ofHttp(HttpException e, double connectSeconds, double readSeconds) {
    String on = on(e.request());
    if (e instanceof InvalidUrlException) {
      return new Failure(BAD_URL, e.getMessage());
    }
    if (e instanceof HttpStatusException s) { // --sse and --ws: an error status leaves nothing to print
      String reason = s.response().reason();
      return new Failure(HTTP_ERROR, "HTTP " + s.response().status() + (reason == null || reason.isEmpty() ? "" : " " + reason)
          + on);
    }
    if (e instanceof WebSocketHandshakeException w) {
      return new Failure(w.status() >= 400 ? HTTP_ERROR : RECEIVE_ERROR, w.getMessage()); // it names the ws:// URL
    }
    if (e instanceof TooManyRedirectsException) {
      return new Failure(TOO_MANY_REDIRECTS, withRequest(e.getMessage(), on));
    }
    if ((e instanceof ConnectException || e instanceof ConnectTimeoutException) && e.getMessage() != null
        && e.getMessage().contains(": every address failed: ")) {
      // A name with several addresses: the message names each and why, which says more than a root cause.
      return new Failure(e instanceof TimeoutException ? TIMEOUT : CONNECT, withRequest(e.getMessage(), on));
    }
    if (e instanceof TimeoutException) {
      String phase;
      double seconds = readSeconds;
      if (e instanceof ConnectTimeoutException) {
        phase = "connect";
        seconds = connectSeconds;
      } else if (e instanceof ReadTimeoutException) {
        phase = "read";
      } else if (e instanceof WriteTimeoutException) {
        phase = "write";
      } else if (e instanceof PoolTimeoutException) {
        phase = "waiting for a connection";
      } else if (e instanceof CallTimeoutException) {
        return new Failure(TIMEOUT, "the transfer exceeded its -m/--max-time" + on);
      } else {
        return new Failure(TIMEOUT, withRequest(e.getMessage(), on));
      }
      return new Failure(TIMEOUT, phase + " timed out after " + seconds(seconds) + on);
    }
    Failure tls = tls(e, on);
    if (tls != null) {
      return tls;
    }
    if (e instanceof ConnectException && e.getMessage() != null && e.getMessage().startsWith("proxy ")) {
      // The proxy answered but refused the tunnel (curl: 56, "CONNECT tunnel failed"); its words say why.
      return new Failure(RECEIVE_ERROR, withRequest(e.getMessage(), on));
    }
    if (e instanceof ConnectException && e.getMessage() != null
        && (e.getMessage().contains(" proxy ") || e.getMessage().contains(" unix socket "))) { // they name where
      return new Failure(hasCause(e, UnknownHostException.class) ? RESOLVE : CONNECT, withRequest(e.getMessage(), on));
    }
    if (e instanceof ConnectException) {
      URI url = e.request() == null ? null : e.request().url();
      if (hasCause(e, UnknownHostException.class)) {
        String host = url == null ? "host" : "host " + url.getHost();
        String why = rootMessage(e);
        // The system resolver's words only repeat the name; another resolver's say what went wrong.
        boolean says = why != null && why.contains(" ") && !why.endsWith("Name or service not known")
            && !why.contains("Temporary failure in name resolution");
        return new Failure(RESOLVE, "cannot resolve " + host + (says ? ": " + why : "") + on);
      }
      String target = url == null ? "" : " to " + hostPort(url);
      String reason = rootMessage(e);
      return new Failure(CONNECT, "cannot connect" + target + (reason == null ? "" : ": " + reason) + on);
    }
    if (e instanceof ProtocolException && isEmptyReply(e)) {
      return new Failure(EMPTY_REPLY, "empty reply from server" + on);
    }
    if (e instanceof TransportException) {
      return new Failure(RECEIVE_ERROR, withRequest(e.getMessage(), on));
    }
    return new Failure(INTERNAL, withRequest(e.getMessage(), on));
  }

  /** TLS failures: {@link TlsException} by its reason, else recognised by an {@code SSLException} cause. */
  private static Failure tls(HttpException e, String on) {
    if (e instanceof TlsException t) {
      return switch (t.reason()) {
        case UNKNOWN_CA, HOSTNAME_MISMATCH, EXPIRED, NOT_YET_VALID ->
            new Failure(CERTIFICATE, withRequest(t.getMessage(), on));
        case HANDSHAKE_TIMEOUT -> new Failure(TIMEOUT, withRequest(t.getMessage(), on));
        case PIN_MISMATCH -> new Failure(PINNED_PUBKEY, withRequest(t.getMessage(), on));
        default -> new Failure(TLS_HANDSHAKE, withRequest(t.getMessage(), on));
      };
    }
    boolean tls = false;
    for (Throwable c = e; c != null && !tls; c = c.getCause()) {
      tls = c instanceof javax.net.ssl.SSLException;
    }
    if (!tls) {
      return null;
    }
    boolean certificate = hasCause(e, CertificateException.class)
        || hasCause(e, java.security.cert.CertPathValidatorException.class);
    for (Throwable c = e; c != null && !certificate; c = c.getCause()) {
      String m = c.getMessage();
      certificate = m != null && (m.contains("certificate") || m.contains("PKIX"))
          && !(c instanceof SSLHandshakeException && m.contains("handshake_failure"));
    }
    return certificate
        ? new Failure(CERTIFICATE, "certificate verification failed: " + reason(e) + on)
        : new Failure(TLS_HANDSHAKE, "TLS handshake failed: " + reason(e) + on);
  }

  private static boolean isEmptyReply(HttpException e) {
    String m = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
    return m.contains("without a response") || m.contains("empty reply") || m.contains("before the response")
        || m.contains("no response");
  }

  static String on(Request request) {
    return request == null ? "" : " (" + request.method() + " " + request.url() + ")";
  }

  /** The message, followed by the request unless it already names it. */
  private static String withRequest(String message, String on) {
    if (message == null || message.isBlank()) {
      return "failed" + on;
    }
    String inner = on.isEmpty() ? "" : on.substring(2, on.length() - 1);
    return !inner.isEmpty() && message.contains(inner) ? message : message + on;
  }

  static String seconds(double s) {
    long tenths = Math.round(s * 10);
    return tenths / 10 + "." + tenths % 10 + " s";
  }

  private static String hostPort(URI url) {
    int port = url.getPort() >= 0 ? url.getPort() : "https".equalsIgnoreCase(url.getScheme()) ? 443 : 80;
    return url.getHost() + ":" + port;
  }

  private static boolean hasCause(Throwable t, Class<? extends Throwable> type) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (type.isInstance(c)) {
        return true;
      }
    }
    return false;
  }

  private static String reason(Throwable t) {
    String root = rootMessage(t);
    return root != null ? root : String.valueOf(t.getMessage());
  }

  private static String rootMessage(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    if (root == t) {
      return null;
    }
    String m = root.getMessage();
    return m == null || m.isBlank() ? root.getClass().getSimpleName() : m;
  }
}
