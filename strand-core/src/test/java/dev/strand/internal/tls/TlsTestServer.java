package dev.strand.internal.tls;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLSession;

/**
 * A loopback TLS server for handshake tests: completes the handshake with the given context and
 * answers any bytes with one fixed HTTP/1.1 response, then closes. With a {@code null} context it
 * accepts TCP and never says a word (for handshake timeouts); {@code plain} answers in clear text.
 */
final class TlsTestServer implements AutoCloseable {
  static final String BODY = "hello over tls";
  private static final byte[] RESPONSE = ("HTTP/1.1 200 OK\r\nContent-Length: " + BODY.length()
      + "\r\nConnection: close\r\n\r\n" + BODY).getBytes(StandardCharsets.US_ASCII);

  private final Channel channel;
  /** SNI names each successful handshake asked for (empty list: no SNI). */
  final List<List<SNIServerName>> requestedServerNames = new CopyOnWriteArrayList<>();
  /** Sessions of successful server-side handshakes. */
  final List<SSLSession> sessions = new CopyOnWriteArrayList<>();

  private TlsTestServer(EventLoopGroup group, SslContext ssl, boolean plain) {
    channel = new ServerBootstrap()
        .group(group)
        .channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            if (ssl != null) {
              ch.pipeline().addLast(ssl.newHandler(ch.alloc()));
            }
            if (ssl != null || plain) {
              ch.pipeline().addLast(new Responder());
            } else {
              ch.pipeline().addLast(new Silent());
            }
          }
        })
        .bind(new InetSocketAddress("127.0.0.1", 0))
        .syncUninterruptibly()
        .channel();
  }

  /** A group for servers; the caller shuts it down. */
  static EventLoopGroup newGroup() {
    return new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  }

  static TlsTestServer tls(EventLoopGroup group, SslContext ssl) {
    return new TlsTestServer(group, ssl, false);
  }

  /** Accepts connections and never answers. */
  static TlsTestServer silent(EventLoopGroup group) {
    return new TlsTestServer(group, null, false);
  }

  /** Answers in plain HTTP. */
  static TlsTestServer plain(EventLoopGroup group) {
    return new TlsTestServer(group, null, true);
  }

  int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  @Override
  public void close() {
    channel.close().syncUninterruptibly();
  }

  private final class Responder extends ChannelInboundHandlerAdapter {
    private boolean answered;

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof SslHandshakeCompletionEvent e && e.isSuccess()) {
        SSLSession session = ctx.pipeline().get(SslHandler.class).engine().getSession();
        sessions.add(session);
        if (session instanceof ExtendedSSLSession x) {
          requestedServerNames.add(List.copyOf(x.getRequestedServerNames()));
        }
      }
      ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ReferenceCountUtil.release(msg);
      if (!answered) {
        answered = true;
        ByteBuf response = Unpooled.wrappedBuffer(RESPONSE);
        ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close(); // a client that rejects us: expected in most of these tests
    }
  }

  private static final class Silent extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ReferenceCountUtil.release(msg);
    }
  }
}
