package dev.strand.testkit;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import java.io.IOException;

/**
 * Ends a pipeline: closes the connection on an error, logging only the unexpected ones. Clients of a test
 * server reset, abandon and fail handshakes on purpose, so I/O and TLS errors are routine, not news.
 */
@ChannelHandler.Sharable
final class ConnectionErrors extends ChannelInboundHandlerAdapter {

    static final ConnectionErrors INSTANCE = new ConnectionErrors();

    private static final InternalLogger LOG = InternalLoggerFactory.getInstance(ConnectionErrors.class);

    private ConnectionErrors() {
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        logUnlessRoutine(ctx, cause);
        ctx.close();
    }

    static void logUnlessRoutine(ChannelHandlerContext ctx, Throwable cause) {
        if (!routine(cause)) {
            LOG.warn("strand-testkit: closing {} after an unexpected error", ctx.channel(), cause);
        }
    }

    /** I/O errors, and TLS errors, which SslHandler reports wrapped in a DecoderException. */
    static boolean routine(Throwable cause) {
        return cause instanceof IOException
                || (cause instanceof DecoderException && cause.getCause() instanceof IOException);
    }
}
