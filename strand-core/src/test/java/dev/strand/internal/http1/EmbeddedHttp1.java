package dev.strand.internal.http1;

import dev.strand.Limits;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.Timeout;
import dev.strand.internal.connect.EventLoops;
import dev.strand.internal.netty.NettyEngine;
import dev.strand.internal.pool.Connector;
import dev.strand.internal.pool.Origin;
import dev.strand.internal.pool.Waiter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * An engine whose connections live on {@link EmbeddedChannel}s: tests write response bytes in and
 * read request bytes out, with no socket. Also counts the reads the connection asks for.
 */
public final class EmbeddedHttp1 implements AutoCloseable {
  static final Origin ORIGIN = new Origin("http", "example.test", 8080);
  static final Timeout TIMEOUT = Timeout.of(Duration.ofSeconds(30));

  final NettyEngine engine;
  public EmbeddedChannel channel;
  int reads;

  public EmbeddedHttp1(int maxHeaderSize) {
    engine = new NettyEngine(Limits.ofConnections(1), EventLoops.create(1, false), e -> new Connector<>() {
      @Override
      public void connect(Origin origin, Waiter<Http1Connection> forWaiter) {
        channel = new EmbeddedChannel();
        channel.config().setAutoRead(false);
        Http1Connection c = Http1Connection.install(channel, e.pool(), origin, null, maxHeaderSize);
        channel.pipeline().addFirst(new ChannelOutboundHandlerAdapter() {
          @Override
          public void read(ChannelHandlerContext ctx) {
            reads++;
            ctx.read();
          }
        });
        e.pool().connected(origin, c);
      }
    });
  }

  public static Request.Builder request(String method, String pathAndQuery) {
    return Request.builder(method, "http://example.test:8080" + pathAndQuery).timeout(TIMEOUT);
  }

  public CompletableFuture<StreamingResponse> send(Request request) {
    return engine.send(request);
  }

  /** Everything the connection wrote, as text. */
  public String written() {
    StringBuilder sb = new StringBuilder();
    Object msg;
    while ((msg = channel.readOutbound()) != null) {
      ByteBuf buf = (ByteBuf) msg;
      sb.append(buf.toString(StandardCharsets.ISO_8859_1));
      buf.release();
    }
    return sb.toString();
  }

  /** Delivers {@code text} as one read from the server. */
  public void receive(String text) {
    channel.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1));
  }

  public void receive(byte[] bytes) {
    channel.writeInbound(Unpooled.wrappedBuffer(bytes));
  }

  @Override
  public void close() {
    if (channel != null) {
      channel.finishAndReleaseAll();
    }
    engine.close();
  }
}
