package dev.strand.http3.internal;

import dev.strand.HttpException;
import dev.strand.ProtocolException;
import dev.strand.Tls;
import io.netty.handler.codec.quic.QuicConnectionCloseEvent;
import java.nio.charset.StandardCharsets;

/** A server's QUIC CONNECTION_CLOSE (RFC 9000 19.19) as the exception it ends a connection with. */
final class QuicCloses {
  private QuicCloses() {}

  /**
   * A {@link dev.strand.TlsException} for a TLS alert (a refused handshake, {@link QuicTlsAlerts}); else a
   * {@link ProtocolException} naming the HTTP/3 or QUIC error code and the server's reason phrase.
   */
  static HttpException describe(QuicConnectionCloseEvent close, String host, int port, Tls tls) {
    String reason = reason(close);
    if (close.isTlsError()) {
      return QuicTlsAlerts.refusal(QuicConnectionCloseEvent.extractTlsError(close.error()), reason, host, port, tls);
    }
    String code = close.isApplicationClose() ? Http3Errors.name(close.error())
        : "QUIC transport error 0x" + Integer.toHexString(close.error());
    return new ProtocolException("QUIC connection closed by the server " + host + ":" + port + ": " + code + reason,
        null);
  }

  /**
   * The close's reason phrase as {@code ": phrase"}, or empty. {@link QuicConnectionCloseEvent#reason()} throws
   * a NullPointerException for a close without one (Netty 4.2.18 clones a null array), and a refused handshake
   * usually has none.
   */
  static String reason(QuicConnectionCloseEvent close) {
    byte[] bytes;
    try {
      bytes = close.reason();
    } catch (NullPointerException none) {
      return "";
    }
    return bytes == null || bytes.length == 0 ? "" : ": " + new String(bytes, StandardCharsets.UTF_8);
  }
}
