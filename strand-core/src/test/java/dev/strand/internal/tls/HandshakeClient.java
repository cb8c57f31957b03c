package dev.strand.internal.tls;

import dev.strand.internal.exchange.Exchange;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslHandler;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;

/**
 * A minimal Netty client that uses {@link TlsContext#newHandler} exactly as the connection code
 * will: connect to 127.0.0.1, handshake as {@code host}, send one request, read until the server
 * closes. Failures of the handshake and of the TLS layer afterwards both end up in {@link Outcome}.
 */
final class HandshakeClient implements AutoCloseable {
  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());

  /**
   * What happened.
   *
   * @param failure the first TLS (or I/O) failure, or {@code null}
   * @param handshakeOk whether the handshake itself succeeded (TLS 1.3 servers may reject a client after it)
   * @param alpn the negotiated application protocol, or {@code null}
   * @param response what the server sent after the handshake
   */
  record Outcome(Throwable failure, boolean handshakeOk, SSLSession session, SSLEngine engine, String alpn,
      String response) {
    boolean ok() {
      return failure == null && handshakeOk && response.endsWith(TlsTestServer.BODY);
    }
  }

  Outcome exchange(TlsContext ctx, String host, int port, Duration connectTimeout) throws Exception {
    CompletableFuture<Outcome> result = new CompletableFuture<>();
    Bootstrap b = new Bootstrap()
        .group(group)
        .channel(NioSocketChannel.class)
        .handler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            SslHandler ssl = ctx.newHandler(ch.alloc(), host, port, connectTimeout);
            ch.pipeline().addLast(ssl, new Exchange(ssl, host, result));
          }
        });
    Channel ch = b.connect(new InetSocketAddress("127.0.0.1", port)).syncUninterruptibly().channel();
    try {
      return result.get(15, TimeUnit.SECONDS);
    } finally {
      ch.close().syncUninterruptibly();
    }
  }

  @Override
  public void close() {
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  private static final class Exchange extends ChannelInboundHandlerAdapter {
    private final SslHandler ssl;
    private final String host;
    private final CompletableFuture<Outcome> result;
    private final StringBuilder response = new StringBuilder();
    private boolean handshakeOk;
    private Throwable failure;

    Exchange(SslHandler ssl, String host, CompletableFuture<Outcome> result) {
      this.ssl = ssl;
      this.host = host;
      this.result = result;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      ssl.handshakeFuture().addListener(f -> {
        if (f.isSuccess()) {
          handshakeOk = true;
          ByteBuf request = Unpooled.copiedBuffer("GET / HTTP/1.1\r\nHost: " + host + "\r\n\r\n", StandardCharsets.US_ASCII);
          ctx.writeAndFlush(request);
        } else {
          fail(f.cause());
          ctx.close();
        }
      });
      ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      try {
        response.append(buf.toString(StandardCharsets.US_ASCII));
      } finally {
        buf.release();
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      fail(cause);
      ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      // Give the handshake future's own failure a chance to be recorded first.
      ctx.executor().execute(() -> result.complete(new Outcome(failure, handshakeOk,
          handshakeOk ? ssl.engine().getSession() : null, ssl.engine(), ssl.applicationProtocol(),
          response.toString())));
    }

    private void fail(Throwable cause) {
      if (failure == null) {
        failure = cause;
      }
    }
  }
}
