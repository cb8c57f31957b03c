package dev.strand.http3.internal;

import dev.strand.Tls;
import dev.strand.TlsException;
import dev.strand.internal.tls.TlsErrors;
import io.netty.util.NetUtil;
import javax.net.ssl.SSLHandshakeException;

/**
 * A QUIC server's refusal of the TLS handshake (a CONNECTION_CLOSE carrying a TLS alert, RFC 9001 4.8) in
 * words: the alert by name and number, and what the server wanted instead, so a refused handshake is not
 * reported as a bare closed channel.
 */
final class QuicTlsAlerts {
  private QuicTlsAlerts() {}

  /** The {@link TlsException} for TLS alert {@code alert}; {@code reason} is the close's phrase (": ..." or empty). */
  static TlsException refusal(int alert, String reason, String host, int port, Tls tls) {
    String name = name(alert);
    String prefix = "TLS handshake with " + host + ":" + port + " failed: the server refused it with TLS alert "
        + name + " (" + alert + ")";
    boolean ip = NetUtil.isValidIpV4Address(host) || NetUtil.isValidIpV6Address(host);
    return switch (alert) {
      // A server that has no certificate for the name asked (or for no name at all) answers so.
      case 112, 80 -> new TlsException(TlsException.Reason.OTHER, prefix + ": "
          + (alert == 80 ? "an internal error, which is also how some servers say they have no certificate for the "
              + "server name asked; " : "it has no certificate for the server name asked; ")
          + (ip ? "none was sent, since " + host + " is an IP address (TLS sends no server name, SNI, for one): "
              + "use the host name in the URL, resolved to this address if need be"
              : "it wanted another name than " + host) + reason, null);
      case 120 -> new TlsException(TlsException.Reason.PROTOCOL, prefix + ": it does not offer HTTP/3 (ALPN h3) on "
          + "this port" + reason, null);
      case 40, 70, 71 -> new TlsException(TlsException.Reason.PROTOCOL, prefix + ": no TLS 1.3 parameters in common"
          + (alert == 40 ? ", or it wants a client certificate" : "") + reason, null);
      // Client-certificate alerts: the TCP path's wording, with what to present.
      case 42, 43, 46, 48, 49, 116 -> TlsErrors.translate(new SSLHandshakeException("Received fatal alert: " + name
          + reason), host, port, tls, null);
      default -> new TlsException(TlsException.Reason.OTHER, prefix + reason, null);
    };
  }

  /** The alert's name in RFC 8446 6, or "unknown". */
  static String name(int alert) {
    return switch (alert) {
      case 0 -> "close_notify";
      case 10 -> "unexpected_message";
      case 20 -> "bad_record_mac";
      case 40 -> "handshake_failure";
      case 42 -> "bad_certificate";
      case 43 -> "unsupported_certificate";
      case 44 -> "certificate_revoked";
      case 45 -> "certificate_expired";
      case 46 -> "certificate_unknown";
      case 47 -> "illegal_parameter";
      case 48 -> "unknown_ca";
      case 49 -> "access_denied";
      case 50 -> "decode_error";
      case 51 -> "decrypt_error";
      case 70 -> "protocol_version";
      case 71 -> "insufficient_security";
      case 80 -> "internal_error";
      case 86 -> "inappropriate_fallback";
      case 90 -> "user_canceled";
      case 109 -> "missing_extension";
      case 110 -> "unsupported_extension";
      case 112 -> "unrecognized_name";
      case 113 -> "bad_certificate_status_response";
      case 115 -> "unknown_psk_identity";
      case 116 -> "certificate_required";
      case 120 -> "no_application_protocol";
      default -> "unknown";
    };
  }
}
