package dev.strand.testkit;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.http3.DefaultHttp3DataFrame;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.http3.Http3DataFrame;
import io.netty.handler.codec.http3.Http3HeadersFrame;
import io.netty.handler.codec.http3.Http3RequestStreamInboundHandler;
import io.netty.handler.codec.http3.Http3ServerConnectionHandler;
import io.netty.handler.codec.quic.InsecureQuicTokenHandler;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback HTTP/3 server on Netty's QUIC and HTTP/3 codecs, for HTTP/3 tests and the bench
 * (needs {@code io.netty:netty-codec-http3} and {@code netty-codec-native-quic} on the class path).
 *
 * <table>
 * <caption>Routes</caption>
 * <tr><td>{@code GET /small}</td><td>{@link Payloads#SMALL}, {@code application/json}</td></tr>
 * <tr><td>{@code GET /bytes/N}</td><td>N bytes of the {@link Payloads} sequence, written as the stream's
 *     flow control allows</td></tr>
 * <tr><td>{@code POST|PUT /sha256}</td><td>{@code "LENGTH SHA256HEX\n"} of the request body</td></tr>
 * <tr><td>{@code POST|PUT /echo}</td><td>the request body (at most 64 MiB)</td></tr>
 * <tr><td>{@code GET /delay/MS}</td><td>as {@code /small}, after MS ms</td></tr>
 * <tr><td>{@code GET /redirect}</td><td>302 to {@code /small}</td></tr>
 * <tr><td>{@code GET /gzip}</td><td>{@link Payloads#SMALL} gzip-encoded, {@code Content-Encoding: gzip}</td></tr>
 * <tr><td>{@code GET /cookies/set}</td><td>{@code Set-Cookie: h3=yes; Path=/}</td></tr>
 * <tr><td>{@code GET /cookies}</td><td>the request's {@code Cookie} field, as text</td></tr>
 * <tr><td>{@code GET /abort/N}</td><td>head with Content-Length 2N, N bytes, then the whole QUIC
 *     connection closed with H3_INTERNAL_ERROR</td></tr>
 * </table>
 *
 * {@snippet :
 * try (Http3TestServer h3 = Http3TestServer.start(pki.server().cert(), pki.server().key(), 100)) {
 *   client.get(h3.url("/small"));
 * }
 * }
 */
public final class Http3TestServer implements AutoCloseable {
    private static final int H3_INTERNAL_ERROR = 0x102;
    private static final int CHUNK = 64 * 1024;
    private static final long ECHO_LIMIT = 64L << 20;
    /** {@link #CHUNK} bytes of the sequence: whole chunks of it start at a multiple of 256, so every chunk is a prefix. */
    private static final byte[] PATTERN = Payloads.bytes(CHUNK);
    private static final byte[] GZIPPED_SMALL = gzip(Payloads.SMALL);

    private final MultiThreadIoEventLoopGroup group;
    private final Channel channel;
    private final int port;
    private final AtomicLong connections = new AtomicLong();
    private final AtomicLong datagrams = new AtomicLong();

    private Http3TestServer(Path certPem, Path keyPem, int port, int maxStreams) throws InterruptedException {
        QuicSslContext ssl = QuicSslContextBuilder.forServer(keyPem.toFile(), null, certPem.toFile())
                .applicationProtocols(Http3.supportedApplicationProtocols()).build();
        // epoll where it loads, as the TCP servers (NIO sends a flush's datagrams one sendto each; epoll with one
        // sendmmsg).
        boolean epoll = Epoll.isAvailable();
        group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("h3-test-server", true),
                epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        var codec = Http3.newQuicServerCodecBuilder()
                .sslContext(ssl)
                .maxIdleTimeout(30, TimeUnit.SECONDS)
                .initialMaxData(64L << 20)
                .initialMaxStreamDataBidirectionalLocal(1 << 20)
                .initialMaxStreamDataBidirectionalRemote(1 << 20)
                .initialMaxStreamsBidirectional(maxStreams)
                .tokenHandler(InsecureQuicTokenHandler.INSTANCE)
                .handler(new ChannelInitializer<QuicChannel>() {
                    @Override
                    protected void initChannel(QuicChannel ch) {
                        connections.incrementAndGet();
                        ch.pipeline().addLast(new Http3ServerConnectionHandler(new ChannelInitializer<QuicStreamChannel>() {
                            @Override
                            protected void initChannel(QuicStreamChannel stream) {
                                stream.pipeline().addLast(new RequestHandler());
                            }
                        }));
                    }
                })
                .build();
        channel = new Bootstrap().group(group).channel(epoll ? EpollDatagramChannel.class : NioDatagramChannel.class)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel udp) {
                        udp.pipeline().addLast(new DatagramCounter(), codec);
                    }
                }).bind(new InetSocketAddress("127.0.0.1", port)).sync().channel();
        this.port = ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /**
     * Starts a server on 127.0.0.1 (UDP), on a free port.
     *
     * @param maxStreams the bidirectional streams a client may open at once (initial_max_streams_bidi)
     */
    public static Http3TestServer start(Path certPem, Path keyPem, int maxStreams) {
        return start(certPem, keyPem, 0, maxStreams);
    }

    /** As {@link #start(Path, Path, int)}, on {@code port} (0 for a free one). */
    public static Http3TestServer start(Path certPem, Path keyPem, int port, int maxStreams) {
        try {
            return new Http3TestServer(certPem, keyPem, port, maxStreams);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while binding", e);
        }
    }

    /** The UDP port. */
    public int port() {
        return port;
    }

    /** {@code https://127.0.0.1:PORT} followed by {@code path}. */
    public String url(String path) {
        return "https://127.0.0.1:" + port + path;
    }

    /** QUIC connections accepted so far. */
    public long connections() {
        return connections.get();
    }

    /** UDP datagrams received so far, from every client: what a client's sending costs in packets. */
    public long datagramsReceived() {
        return datagrams.get();
    }

    @Override
    public void close() {
        channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    /** The SHA-256 of the first {@code n} bytes of the {@link Payloads} sequence, in hex, as {@code /bytes/N} sends them. */
    public static String patternSha256(long n) {
        MessageDigest md = sha256();
        byte[] block = PATTERN;
        for (long left = n; left > 0; left -= CHUNK) {
            md.update(block, 0, (int) Math.min(CHUNK, left));
        }
        return HexFormat.of().formatHex(md.digest());
    }

    private static byte[] gzip(byte[] b) {
        var out = new java.io.ByteArrayOutputStream();
        try (var z = new java.util.zip.GZIPOutputStream(out)) {
            z.write(b);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One request stream. */
    private static final class RequestHandler extends Http3RequestStreamInboundHandler {
        private String method = "";
        private String path = "";
        private String cookie = "";
        private MessageDigest digest;
        private long received;
        private ByteBuf echo;
        // /bytes/N: what is still to write.
        private long left;
        private boolean finishing;

        @Override
        protected void channelRead(ChannelHandlerContext ctx, Http3HeadersFrame frame) {
            method = String.valueOf(frame.headers().method());
            path = String.valueOf(frame.headers().path());
            CharSequence c = frame.headers().get("cookie");
            cookie = c == null ? "" : c.toString();
            if (path.equals("/sha256")) {
                digest = sha256();
            } else if (path.equals("/echo")) {
                echo = ctx.alloc().buffer();
            }
        }

        @Override
        protected void channelRead(ChannelHandlerContext ctx, Http3DataFrame frame) {
            ByteBuf content = frame.content();
            try {
                received += content.readableBytes();
                if (digest != null) {
                    digest.update(content.nioBuffer());
                } else if (echo != null && echo.readableBytes() + content.readableBytes() <= ECHO_LIMIT) {
                    echo.writeBytes(content);
                }
            } finally {
                frame.release();
            }
        }

        @Override
        protected void channelInputClosed(ChannelHandlerContext ctx) {
            if (path.equals("/small")) {
                respond(ctx, "application/json", Unpooled.wrappedBuffer(Payloads.SMALL));
            } else if (path.equals("/sha256") && digest != null) {
                String line = received + " " + HexFormat.of().formatHex(digest.digest()) + "\n";
                respond(ctx, "text/plain", Unpooled.copiedBuffer(line, StandardCharsets.US_ASCII));
            } else if (path.equals("/echo") && echo != null) {
                ByteBuf body = echo;
                echo = null;
                respond(ctx, "application/octet-stream", body);
            } else if (path.equals("/redirect")) {
                DefaultHttp3HeadersFrame head = head(302, "text/plain", 0);
                head.headers().set("location", "/small");
                ctx.writeAndFlush(head).addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
            } else if (path.equals("/gzip")) {
                DefaultHttp3HeadersFrame head = head(200, "application/json", GZIPPED_SMALL.length);
                head.headers().set("content-encoding", "gzip");
                ctx.write(head);
                ctx.writeAndFlush(new DefaultHttp3DataFrame(Unpooled.wrappedBuffer(GZIPPED_SMALL)))
                        .addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
            } else if (path.equals("/cookies/set")) {
                DefaultHttp3HeadersFrame head = head(200, "text/plain", 0);
                head.headers().set("set-cookie", "h3=yes; Path=/");
                ctx.writeAndFlush(head).addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
            } else if (path.equals("/cookies")) {
                respond(ctx, "text/plain", Unpooled.copiedBuffer(cookie, StandardCharsets.UTF_8));
            } else if (path.startsWith("/bytes/")) {
                left = number(path.substring(7));
                DefaultHttp3HeadersFrame head = head(200, "application/octet-stream", left);
                ctx.write(head);
                pump(ctx);
            } else if (path.startsWith("/delay/")) {
                ctx.executor().schedule(() -> respond(ctx, "application/json", Unpooled.wrappedBuffer(Payloads.SMALL)),
                        number(path.substring(7)), TimeUnit.MILLISECONDS);
            } else if (path.startsWith("/abort/")) {
                long n = number(path.substring(7));
                ctx.write(head(200, "application/octet-stream", 2 * n));
                ctx.writeAndFlush(new DefaultHttp3DataFrame(Unpooled.wrappedBuffer(Payloads.bytes((int) n))))
                        .addListener(f -> ctx.executor().schedule(() -> ((QuicChannel) ctx.channel().parent())
                                .close(true, H3_INTERNAL_ERROR, Unpooled.copiedBuffer("test abort", StandardCharsets.US_ASCII)),
                                20, TimeUnit.MILLISECONDS));
            } else {
                respond(ctx, "text/plain", Unpooled.copiedBuffer("no route " + method + " " + path + "\n",
                        StandardCharsets.UTF_8), 404);
            }
        }

        /**
         * Writes /bytes/N while the stream is writable; the rest when it is again. The FIN goes once the last frame
         * is written: a stream's shutdownOutput does not wait for frames still queued behind flow control.
         */
        private void pump(ChannelHandlerContext ctx) {
            io.netty.channel.ChannelFuture last = null;
            while (left > 0 && ctx.channel().isWritable()) {
                int n = (int) Math.min(CHUNK, left);
                left -= n;
                last = ctx.write(new DefaultHttp3DataFrame(Unpooled.wrappedBuffer(PATTERN, 0, n)));
            }
            ctx.flush();
            if (left == 0 && !finishing) {
                finishing = true;
                if (last == null) {
                    ((QuicStreamChannel) ctx.channel()).shutdownOutput();
                } else {
                    last.addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
                }
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (left > 0 && ctx.channel().isWritable()) {
                pump(ctx);
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (echo != null) {
                echo.release();
                echo = null;
            }
            ctx.fireChannelInactive();
        }

        private static void respond(ChannelHandlerContext ctx, String type, ByteBuf body) {
            respond(ctx, type, body, 200);
        }

        private static void respond(ChannelHandlerContext ctx, String type, ByteBuf body, int status) {
            ctx.write(head(status, type, body.readableBytes()));
            ctx.writeAndFlush(new DefaultHttp3DataFrame(body)).addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
        }

        private static DefaultHttp3HeadersFrame head(int status, String type, long length) {
            DefaultHttp3HeadersFrame head = new DefaultHttp3HeadersFrame();
            head.headers().status(Integer.toString(status)).set("content-type", type).setLong("content-length", length);
            return head;
        }

        private static long number(String s) {
            try {
                return Long.parseLong(s);
            } catch (NumberFormatException e) {
                return 0;
            }
        }
    }

    private final class DatagramCounter extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            datagrams.incrementAndGet();
            ctx.fireChannelRead(msg);
        }
    }
}
