package dev.strand.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2ChannelDuplexHandler;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.util.ReferenceCountUtil;

/**
 * A server's HTTP/2 bytes (frames, HPACK header blocks) into Netty's frame codec built as Http2Connection builds
 * it, with one request stream open. Protocol errors stay HTTP/2 errors (GOAWAY or RST_STREAM); header blocks
 * beyond the header-list limit are refused rather than held.
 */
class Http2FramesFuzzTest {
  private static final int MAX_HEADER_LIST = 8 * 1024;

  @FuzzTest
  void serverFrames(byte[] wire) {
    Http2FrameCodec codec = Http2FrameCodecBuilder.forClient()
        .initialSettings(Http2Settings.defaultSettings().pushEnabled(false).initialWindowSize(1 << 20)
            .maxHeaderListSize(MAX_HEADER_LIST))
        .gracefulShutdownTimeoutMillis(0)
        .build();
    Frames frames = new Frames();
    EmbeddedChannel ch = new EmbeddedChannel(codec, frames);
    ch.writeAndFlush(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().method("GET").scheme("https")
        .authority("example.test").path("/"), true).stream(frames.newStream()));
    ch.runPendingTasks();
    for (byte[] piece : Fuzzing.pieces(wire)) {
      if (!ch.isOpen()) {
        break;
      }
      ch.writeInbound(Unpooled.wrappedBuffer(piece));
    }
    ch.close();
    ch.runPendingTasks();
    ch.finishAndReleaseAll();
    if (frames.failure != null) {
      throw new AssertionError("not an HTTP/2 error: " + frames.failure, frames.failure);
    }
  }

  /**
   * After the codec, as Http2Connection's own handler: takes every frame, of the connection and of its streams,
   * and notes an exception that is not Netty's HTTP/2 error.
   */
  private static final class Frames extends Http2ChannelDuplexHandler {
    Throwable failure;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof Http2HeadersFrame h && h.headers().size() > MAX_HEADER_LIST) {
        failure = new IllegalStateException(h.headers().size() + " header fields past the limit");
      }
      ReferenceCountUtil.release(msg);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      Throwable c = cause;
      while (c != null && !(c instanceof Http2Exception)) {
        c = c.getCause();
      }
      if (c == null && failure == null) {
        failure = cause;
      }
    }
  }
}
