package dev.strand.internal.connect;

import dev.strand.HttpException;
import dev.strand.Tls;
import dev.strand.internal.tls.TlsErrors;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Right behind the TLS handler: a TLS failure on an established connection (with TLS 1.3 a server
 * rejects a client certificate only after the client's handshake finished) travels on as a
 * {@link dev.strand.TlsException} that says why, not as a bare {@code SSLException}.
 */
public final class TlsErrorTranslator extends ChannelInboundHandlerAdapter {
  private final String host;
  private final int port;
  private final Tls tls;

  public TlsErrorTranslator(String host, int port, Tls tls) {
    this.host = host;
    this.port = port;
    this.tls = tls;
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (!(cause instanceof HttpException) && TlsErrors.isTlsFailure(cause)) {
      ctx.fireExceptionCaught(TlsErrors.translate(cause, host, port, tls, null));
    } else {
      ctx.fireExceptionCaught(cause);
    }
  }
}
