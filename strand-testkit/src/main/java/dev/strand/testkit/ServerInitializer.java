package dev.strand.testkit;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;

/**
 * Builds each accepted connection's pipeline: TLS when configured, then HTTP/1.1, or HTTP/2 chosen by ALPN
 * (over TLS) or by the connection preface (cleartext). Either way the requests end up in an
 * {@link HttpConnection}: one per TCP connection for HTTP/1.1, one per stream for HTTP/2, so both serve the
 * same endpoints.
 */
final class ServerInitializer extends ChannelInitializer<SocketChannel> {

    static final int MAX_HEADER_SIZE = 64 * 1024;

    // Receive windows: big enough that a loopback upload is not throttled by round trips, small enough to bound
    // what a client can make the server hold per stream and per connection.
    private static final int STREAM_WINDOW = 1024 * 1024;
    private static final int CONNECTION_WINDOW = 8 * 1024 * 1024;

    private static final Http2StreamFrameToHttpObjectCodec STREAM_CODEC = new Http2StreamFrameToHttpObjectCodec(true);

    private final ConnectionStats stats;
    private final SslContext ssl;
    private final boolean http2;
    private final int maxConcurrentStreams;
    private final ChannelInitializer<Http2StreamChannel> streamInitializer;

    ServerInitializer(ConnectionStats stats, SslContext ssl, boolean http2, int maxConcurrentStreams) {
        this.stats = stats;
        this.ssl = ssl;
        this.http2 = http2;
        this.maxConcurrentStreams = maxConcurrentStreams;
        this.streamInitializer = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Http2StreamChannel ch) {
                ch.pipeline().addLast(STREAM_CODEC, new HttpConnection(stats, true));
            }
        };
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        ChannelPipeline p = ch.pipeline().addLast(stats);
        if (ssl != null) {
            SslHandler tls = ssl.newHandler(ch.alloc());
            tls.handshakeFuture().addListener(f -> {
                if (f.isSuccess()) {
                    stats.tlsHandshakeCompleted();
                }
            });
            p.addLast(tls);
            if (http2) {
                p.addLast(new Alpn());
            } else {
                http1(p);
            }
        } else if (http2) {
            p.addLast(new PrefaceSniffer(this));
        } else {
            http1(p);
        }
    }

    void http1(ChannelPipeline p) {
        p.addLast(new HeadAwareResponseEncoder())
                .addLast(new HttpRequestDecoder(new HttpDecoderConfig()
                        .setMaxInitialLineLength(16 * 1024)
                        .setMaxHeaderSize(MAX_HEADER_SIZE)
                        .setMaxChunkSize(64 * 1024)))
                .addLast(new HttpConnection(stats));
    }

    /** Only on an active channel (after the preface or ALPN), which is when the codec sends its SETTINGS. */
    void http2(ChannelPipeline p) {
        Http2Settings settings = Http2Settings.defaultSettings()
                .maxConcurrentStreams(maxConcurrentStreams)
                .initialWindowSize(STREAM_WINDOW)
                .maxHeaderListSize(MAX_HEADER_SIZE);
        p.addLast(Http2FrameCodecBuilder.forServer().initialSettings(settings).build())
                .addLast(new Http2MultiplexHandler(streamInitializer))
                .addLast(ConnectionErrors.INSTANCE);
        // SETTINGS cannot raise the connection window; a WINDOW_UPDATE for stream 0 does.
        p.channel().writeAndFlush(new DefaultHttp2WindowUpdateFrame(CONNECTION_WINDOW - 65_535));
    }

    /** Picks the pipeline for the protocol the TLS handshake negotiated; HTTP/1.1 when the client chose none. */
    private final class Alpn extends ApplicationProtocolNegotiationHandler {
        Alpn() {
            super(ApplicationProtocolNames.HTTP_1_1);
        }

        @Override
        protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
            if (ApplicationProtocolNames.HTTP_2.equals(protocol)) {
                http2(ctx.pipeline());
            } else {
                http1(ctx.pipeline());
            }
        }

        @Override
        protected void handshakeFailure(ChannelHandlerContext ctx, Throwable cause) {
            ConnectionErrors.logUnlessRoutine(ctx, cause);
            ctx.close();
        }
    }
}
