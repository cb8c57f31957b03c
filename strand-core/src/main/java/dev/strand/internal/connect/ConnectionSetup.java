package dev.strand.internal.connect;

import dev.strand.HttpException;
import dev.strand.Request;
import dev.strand.VersionPolicy;
import dev.strand.internal.events.CallEvents;
import dev.strand.internal.exchange.ErrorMapper;
import dev.strand.internal.http1.Http1Connection;
import dev.strand.internal.http2.Http2Connection;
import dev.strand.internal.pool.Origin;
import dev.strand.internal.tls.TlsContext;
import dev.strand.internal.tls.TlsContexts;
import dev.strand.internal.tls.TlsErrors;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;

/**
 * Settles a new {@code https} connection before the pool sees it: the TLS handshake, then the
 * protocol, HTTP/2 if ALPN chose {@code h2} (or by prior knowledge), else HTTP/1.1 (always for an
 * upgrade, whose TLS offers only {@code http/1.1}). Reports exactly
 * one of {@code connected} (HTTP/1.1 here; HTTP/2 once the server's SETTINGS arrived, in
 * {@link Http2Connection}) or {@code connectFailed} to the pool.
 */
final class ConnectionSetup extends ChannelInboundHandlerAdapter {
  private final ConnectContext engine;
  private final Origin origin;
  private final Duration limit;
  private final Request request;
  private final int maxHeaderSize;
  private final SslHandler ssl;
  private boolean settled;

  private ConnectionSetup(ConnectContext engine, Origin origin, Duration limit, Request request, int maxHeaderSize,
      SslHandler ssl) {
    this.engine = engine;
    this.origin = origin;
    this.limit = limit;
    this.request = request;
    this.maxHeaderSize = maxHeaderSize;
    this.ssl = ssl;
  }

  /** Starts TLS on {@code ch}, connected to the origin (perhaps through a tunnel). */
  static void install(Channel ch, ConnectContext engine, Origin origin, Duration limit, Request request,
      int maxHeaderSize) {
    if (!ch.isActive()) {
      // Closed as it was handed over (a proxy that hung up right after its answer to CONNECT): no close event
      // would reach handlers added now.
      engine.pool().connectFailed(origin, closed(engine, origin, request));
      ch.close();
      return;
    }
    TlsContext context = origin.upgrade() ? engine.tls().http1Context() : engine.tls().context();
    SslHandler ssl = context.newHandler(ch.alloc(), origin.host(), origin.port(), limit);
    CallEvents events = CallEvents.of(request);
    if (events != null) {
      events.tlsStart();
    }
    ch.pipeline().addLast("tls", ssl)
        .addLast("tls-errors", new TlsErrorTranslator(origin.socketHost(), origin.port(), engine.tls().tls))
        .addLast("setup", new ConnectionSetup(engine, origin, limit, request, maxHeaderSize, ssl));
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof SslHandshakeCompletionEvent e) {
      if (e.isSuccess()) {
        CallEvents events = CallEvents.of(request);
        if (events != null) {
          if (TlsContexts.resumed(ssl.engine())) {
            events.tlsResumed(ssl.engine().getSession());
          }
          events.tlsEnd(ssl.engine().getSession(), ssl.applicationProtocol());
        }
        boolean h2 = !origin.upgrade() && ("h2".equals(ssl.applicationProtocol())
            || engine.versionPolicy() == VersionPolicy.HTTP_2_PRIOR_KNOWLEDGE);
        settle(ctx, h2);
      } else {
        HttpException own = ownRejection();
        fail(ctx, own != null ? own
            : TlsErrors.translate(e.cause(), origin.socketHost(), origin.port(), engine.tls().tls, request));
      }
      return;
    }
    ctx.fireUserEventTriggered(evt);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // The handshake event follows with the same cause; this covers failures outside it.
    if (!settled && !TlsErrors.isTlsFailure(cause) && !(cause instanceof HttpException)) {
      fail(ctx, ErrorMapper.connect(cause, request, origin));
    } else if (cause instanceof HttpException e && !settled) {
      HttpException own = ownRejection();
      fail(ctx, own != null ? own : e);
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    // A close during the handshake the TLS handler reports itself, and this connection is settled by then; one
    // before the handshake could start is the same failure to the user, whatever the timing.
    HttpException own = ownRejection();
    fail(ctx, own != null ? own : closed(engine, origin, request));
    ctx.fireChannelInactive();
  }

  /** The connection closed before TLS was up: a failed handshake to the user, whenever the close came. */
  private static HttpException closed(ConnectContext engine, Origin origin, Request request) {
    return TlsErrors.translate(new ClosedChannelException(), origin.socketHost(), origin.port(), engine.tls().tls,
        request);
  }

  /** This client's rejection of the server's certificate, which a close it provoked must not hide. */
  private HttpException ownRejection() {
    return TlsErrors.ownRejection(ssl.engine(), origin.socketHost(), origin.port(), engine.tls().tls, request);
  }

  private void settle(ChannelHandlerContext ctx, boolean http2) {
    if (settled) {
      return;
    }
    settled = true;
    Channel ch = ctx.channel();
    ctx.pipeline().remove(this);
    if (http2) {
      Http2Connection.install(ch, engine.pool(), origin, limit, maxHeaderSize);
    } else {
      Http1Connection c = Http1Connection.install(ch, engine.pool(), origin, null, maxHeaderSize);
      engine.pool().connected(origin, c);
      ch.read();
    }
  }

  private void fail(ChannelHandlerContext ctx, HttpException e) {
    if (settled) {
      return;
    }
    settled = true;
    engine.pool().connectFailed(origin, e);
    ctx.close();
  }
}
