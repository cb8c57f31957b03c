package dev.strand.http3.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http3.Http3ErrorCode;
import io.netty.handler.codec.http3.Http3Exception;

/**
 * Follows the frame boundaries (RFC 9114 7.1: type and length as QUIC varints, then the payload) of the bytes
 * a request stream receives, ahead of Netty's HTTP/3 codec, to see a frame cut short by the server's FIN.
 * Netty's decoder drops such a remainder silently, so a body whose last DATA frame was truncated read as
 * complete; here it is H3_FRAME_ERROR (RFC 9114 7.1: "a frame that ends before its length ... MUST be
 * treated as a connection error of type H3_FRAME_ERROR"). The bytes themselves pass on untouched.
 */
final class FrameBoundaries extends ChannelInboundHandlerAdapter {
  /** Bytes of the varint being read, and how many it has in all (0: none being read). */
  private int have;
  private int need;
  private long value;
  /** Whether the varint being read (or next) is a frame's length rather than its type. */
  private boolean length;
  /** Payload bytes of the current frame still to come. */
  private long payload;

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof ByteBuf b) {
      scan(b);
    }
    ctx.fireChannelRead(msg);
  }

  private void scan(ByteBuf b) {
    int i = b.readerIndex();
    int end = b.writerIndex();
    while (i < end) {
      if (payload > 0) {
        int n = (int) Math.min(payload, end - i);
        payload -= n;
        i += n;
        continue;
      }
      int x = b.getByte(i++) & 0xff;
      if (need == 0) {
        need = 1 << (x >> 6);
        value = x & 0x3f;
        have = 1;
      } else {
        value = (value << 8) | x;
        have++;
      }
      if (have == need) {
        need = 0;
        if (length) {
          payload = value;
        }
        length = !length;
      }
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof ChannelInputShutdownEvent && (need != 0 || length || payload > 0)) {
      ctx.fireExceptionCaught(new Http3Exception(Http3ErrorCode.H3_FRAME_ERROR, "the stream ended inside a frame"
          + (payload > 0 ? ", " + payload + " bytes of its payload missing" : "")));
    }
    ctx.fireUserEventTriggered(evt);
  }
}
