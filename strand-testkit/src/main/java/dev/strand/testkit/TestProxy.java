package dev.strand.testkit;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scripted HTTP proxy on 127.0.0.1, for what a real proxy cannot show deterministically: it records
 * every request head it receives and counts connections, CONNECTs and open tunnels. Requests that are
 * not CONNECT are answered by the proxy itself, {@code 200} with the request line as the body, so a
 * test sees the absolute-form target the client sent. CONNECT is answered as {@link #builder()} says:
 * a tunnel to the named host and port (the default), an error status, or no answer at all.
 *
 * {@snippet :
 * try (TestProxy proxy = TestProxy.builder().connectStatus(407).build()) {
 *   // Proxy.http(proxy.url()) ...
 * }
 * }
 */
public final class TestProxy implements AutoCloseable {
  /** One request head as the proxy received it. */
  public record Seen(String requestLine, String proxyAuthorization) {}

  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final Channel server;
  private final int connectStatus;
  private final boolean silent;
  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private final AtomicInteger accepted = new AtomicInteger();
  private final AtomicInteger connects = new AtomicInteger();
  private final AtomicInteger tunnelsOpen = new AtomicInteger();

  private TestProxy(Builder b) {
    this.connectStatus = b.connectStatus;
    this.silent = b.silent;
    this.server = new ServerBootstrap()
        .group(group)
        .channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            accepted.incrementAndGet();
            ch.pipeline().addLast("codec", new HttpServerCodec())
                .addLast("aggregator", new HttpObjectAggregator(1 << 20))
                .addLast("proxy", new ProxyHandler());
          }
        })
        .bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().channel();
  }

  /** A proxy that tunnels every CONNECT. */
  public static TestProxy start() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public int port() {
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  /** {@code http://127.0.0.1:PORT}. */
  public String url() {
    return "http://127.0.0.1:" + port();
  }

  /** Every request head received, CONNECTs included, in order. */
  public List<Seen> seen() {
    return List.copyOf(seen);
  }

  /** Connections accepted from clients. */
  public int acceptedConnections() {
    return accepted.get();
  }

  /** CONNECT requests received. */
  public int connects() {
    return connects.get();
  }

  /** Tunnels open now. */
  public int tunnelsOpen() {
    return tunnelsOpen.get();
  }

  @Override
  public void close() {
    server.close().syncUninterruptibly();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** Settings of a {@link TestProxy}. */
  public static final class Builder {
    private int connectStatus = 200;
    private boolean silent;

    private Builder() {}

    /** Answer CONNECT with this status and close (200, the default, opens the tunnel). */
    public Builder connectStatus(int status) {
      this.connectStatus = status;
      return this;
    }

    /** Read requests and never answer them. */
    public Builder silent() {
      this.silent = true;
      return this;
    }

    public TestProxy build() {
      return new TestProxy(this);
    }
  }

  private final class ProxyHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
      seen.add(new Seen(req.method() + " " + req.uri() + " " + req.protocolVersion(),
          req.headers().get(HttpHeaderNames.PROXY_AUTHORIZATION)));
      boolean connect = req.method().equals(HttpMethod.CONNECT);
      if (connect) {
        connects.incrementAndGet();
      }
      if (silent) {
        return;
      }
      if (!connect) {
        byte[] body = (req.method() + " " + req.uri()).getBytes(StandardCharsets.UTF_8);
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
            Unpooled.wrappedBuffer(body));
        res.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain").setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
            .set("X-Proxy", "testkit");
        ChannelFuture f = ctx.writeAndFlush(res);
        if (!HttpUtil.isKeepAlive(req)) {
          f.addListener(ChannelFutureListener.CLOSE);
        }
        return;
      }
      if (connectStatus != 200) {
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(connectStatus));
        res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
        if (connectStatus == 407) {
          res.headers().set(HttpHeaderNames.PROXY_AUTHENTICATE, "Basic realm=\"testkit\"");
        }
        ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
        return;
      }
      String[] target = req.uri().split(":");
      Channel client = ctx.channel();
      client.config().setAutoRead(false);
      new Bootstrap().group(client.eventLoop()).channel(NioSocketChannel.class)
          .handler(new Relay(client))
          .connect(target[0], Integer.parseInt(target[1]))
          .addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
              FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.BAD_GATEWAY);
              res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
              client.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
              return;
            }
            tunnelsOpen.incrementAndGet();
            f.channel().closeFuture().addListener(c -> tunnelsOpen.decrementAndGet());
            FullHttpResponse ok = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                new HttpResponseStatus(200, "Connection established"));
            client.writeAndFlush(ok).addListener(w -> {
              client.pipeline().remove("proxy");
              client.pipeline().remove("aggregator");
              client.pipeline().remove("codec");
              client.pipeline().addLast(new Relay(f.channel()));
              client.config().setAutoRead(true);
            });
          });
    }
  }

  /** Copies what one side reads to the other, and closes the other when this side closes. */
  private static final class Relay extends ChannelInboundHandlerAdapter {
    private final Channel other;

    Relay(Channel other) {
      this.other = other;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (other.isActive()) {
        other.writeAndFlush(msg);
      } else {
        ReferenceCountUtil.release(msg);
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      other.close();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }
}
