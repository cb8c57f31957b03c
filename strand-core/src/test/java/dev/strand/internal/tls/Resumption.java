package dev.strand.internal.tls;

import java.util.HexFormat;
import javax.net.ssl.SSLSession;

/**
 * Whether a client connection resumed an earlier TLS session. Neither engine says so in public
 * API, but both keep the original session's creation time on resumption (OpenSSL also its id; the
 * JDK gives a TLS 1.3 resumed session a new id), while a full handshake starts a new session.
 */
final class Resumption {
  private Resumption() {}

  static boolean resumed(HandshakeClient.Outcome first, HandshakeClient.Outcome second) {
    return first.session() != null && second.session() != null
        && first.session().getCreationTime() == second.session().getCreationTime();
  }

  static String describe(HandshakeClient.Outcome first, HandshakeClient.Outcome second) {
    return "first " + describe(first.session()) + ", second " + describe(second.session());
  }

  private static String describe(SSLSession s) {
    return s == null ? "null" : s.getClass().getSimpleName() + "[" + s.getProtocol() + " id="
        + HexFormat.of().formatHex(s.getId()) + " created=" + s.getCreationTime() + "]";
  }
}
