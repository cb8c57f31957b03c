package dev.strand.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http2.Http2CodecUtil;
import java.util.List;

/**
 * Decides, from a cleartext connection's first bytes, between HTTP/2 with prior knowledge (the client opens
 * with the connection preface) and HTTP/1.1; installs that pipeline and removes itself, handing over the bytes
 * read so far. It looks only at the first 24 bytes, so it costs nothing per request.
 */
final class PrefaceSniffer extends ByteToMessageDecoder {

    // Unreleasable, shared by every connection.
    private static final ByteBuf PREFACE = Http2CodecUtil.connectionPrefaceBuf();

    private final ServerInitializer pipelines;

    PrefaceSniffer(ServerInitializer pipelines) {
        this.pipelines = pipelines;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int n = Math.min(in.readableBytes(), PREFACE.readableBytes());
        boolean prefix = ByteBufUtil.equals(PREFACE, PREFACE.readerIndex(), in, in.readerIndex(), n);
        if (!prefix) {
            pipelines.http1(ctx.pipeline());
        } else if (n == PREFACE.readableBytes()) {
            pipelines.http2(ctx.pipeline());
        } else {
            return; // a prefix of the preface: wait for more
        }
        // ByteToMessageDecoder passes what it has buffered on to the handlers just added.
        ctx.pipeline().remove(this);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ConnectionErrors.INSTANCE.exceptionCaught(ctx, cause);
    }
}
