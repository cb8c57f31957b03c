package dev.strand.internal.http2;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2PingFrame;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.handler.codec.http2.Http2StreamFrame;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A cleartext HTTP/2 server (prior knowledge) scripted for connection-lifecycle tests. Each stream
 * is answered {@code 200 "conn=N"} once its request has ended. With {@code goAwayAfter = k > 0}, the
 * first connection waits for {@code k} requests, sends GOAWAY whose last-stream-id is the second
 * lowest of them, answers those two and never the others. {@code ackPings false}: PINGs go unanswered.
 */
final class ScriptedH2Server implements AutoCloseable {
  final AtomicInteger connections = new AtomicInteger();
  final AtomicInteger pings = new AtomicInteger();
  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final Channel channel;

  /** The SETTINGS_INITIAL_WINDOW_SIZE values the client sent, in order. */
  final List<Long> clientStreamWindows = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final int bodyBytes;

  ScriptedH2Server(int goAwayAfter, boolean ackPings) {
    this(goAwayAfter, ackPings, 0);
  }

  /** With {@code bodyBytes > 0}, each stream is answered that many zero bytes instead. */
  ScriptedH2Server(int goAwayAfter, boolean ackPings, int bodyBytes) {
    this.bodyBytes = bodyBytes;
    channel = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            int n = connections.incrementAndGet();
            Http2FrameCodec codec = Http2FrameCodecBuilder.forServer().autoAckPingFrame(ackPings).build();
            ch.pipeline().addLast(codec, new Script(codec, n, n == 1 ? goAwayAfter : 0));
          }
        })
        .bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().channel();
  }

  String url(String path) {
    return "http://127.0.0.1:" + port() + path;
  }

  int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  @Override
  public void close() {
    channel.close().syncUninterruptibly();
    group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
  }

  private final class Script extends ChannelInboundHandlerAdapter {
    private final Http2FrameCodec codec;
    private final int connection;
    private final int goAwayAfter;
    private final List<Http2FrameStream> held = new ArrayList<>();

    Script(Http2FrameCodec codec, int connection, int goAwayAfter) {
      this.codec = codec;
      this.connection = connection;
      this.goAwayAfter = goAwayAfter;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      try {
        if (msg instanceof Http2PingFrame p && !p.ack()) {
          pings.incrementAndGet();
        }
        if (msg instanceof Http2SettingsFrame settings && settings.settings().initialWindowSize() != null) {
          clientStreamWindows.add((long) settings.settings().initialWindowSize());
        }
        boolean ended = msg instanceof Http2HeadersFrame h && h.isEndStream()
            || msg instanceof Http2DataFrame d && d.isEndStream();
        if (!ended) {
          return;
        }
        Http2FrameStream stream = ((Http2StreamFrame) msg).stream();
        if (goAwayAfter == 0) {
          answer(ctx, stream);
          return;
        }
        held.add(stream);
        if (held.size() == goAwayAfter) {
          held.sort((a, b) -> Integer.compare(a.id(), b.id()));
          int last = held.get(1).id();
          codec.goAway(ctx.pipeline().context(codec), last, Http2Error.NO_ERROR.code(), Unpooled.EMPTY_BUFFER,
              ctx.newPromise());
          answer(ctx, held.get(0));
          answer(ctx, held.get(1));
        }
      } finally {
        ReferenceCountUtil.release(msg);
      }
    }

    private void answer(ChannelHandlerContext ctx, Http2FrameStream stream) {
      ctx.write(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("200")).stream(stream));
      if (bodyBytes > 0) {
        int chunk = 16 * 1024; // the codec queues what the client's windows do not yet allow
        for (int sent = 0; sent < bodyBytes; sent += chunk) {
          int n = Math.min(chunk, bodyBytes - sent);
          ctx.write(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(new byte[n]), sent + n == bodyBytes).stream(stream));
        }
        ctx.flush();
        return;
      }
      ctx.writeAndFlush(new DefaultHttp2DataFrame(
          Unpooled.copiedBuffer("conn=" + connection, StandardCharsets.US_ASCII), true).stream(stream));
    }
  }
}
