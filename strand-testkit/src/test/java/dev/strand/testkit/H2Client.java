package dev.strand.testkit;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2ChannelDuplexHandler;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2FrameStreamException;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A minimal h2c client with prior knowledge on Netty's frame codec, for what the JDK client hides: SETTINGS,
 * RST_STREAM, trailers, and flow-control windows it returns only when told to.
 */
final class H2Client implements Closeable {

    /** What arrived: on a stream (id > 0) or on the connection (id 0). */
    sealed interface Event permits Settings, Headers, Data, Reset, GoAway, Closed, StreamError {
    }

    record Settings(Http2Settings settings) implements Event {
    }

    record Headers(Http2Headers headers, boolean endStream) implements Event {
    }

    record Data(byte[] bytes, boolean endStream) implements Event {
    }

    record Reset(long errorCode) implements Event {
    }

    record GoAway(long errorCode) implements Event {
    }

    record Closed() implements Event {
    }

    /** A stream's response as far as it got. */
    static final class Response {
        Http2Headers headers;
        Http2Headers trailers;
        final ByteArrayOutputStream body = new ByteArrayOutputStream();
        Long resetCode;
        // Set when this client's codec rejected the stream (e.g. a content-length that the DATA did not match).
        Long streamErrorCode;
        boolean connectionClosed;

        int status() {
            return Integer.parseInt(headers.status().toString());
        }

        String text() {
            return body.toString(java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private static final long WAIT_SECONDS = 30;

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Map<Integer, BlockingQueue<Event>> streams = new ConcurrentHashMap<>();
    private final BlockingQueue<Event> connection = new LinkedBlockingQueue<>();
    private final Map<Integer, Http2FrameStream> frameStreams = new ConcurrentHashMap<>();
    private final boolean autoWindow;
    private final FrameHandler handler = new FrameHandler();
    private final Channel channel;

    /**
     * @param initialWindow the stream window the client advertises
     * @param autoWindow return flow-control credit for every DATA frame as it arrives; otherwise only
     *         {@link #windowUpdate} does
     */
    H2Client(TestServer server, int initialWindow, boolean autoWindow) throws InterruptedException {
        this.autoWindow = autoWindow;
        try {
            channel = new Bootstrap().group(group).channel(NioSocketChannel.class)
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(Http2FrameCodecBuilder.forClient()
                                    .initialSettings(Http2Settings.defaultSettings().initialWindowSize(initialWindow))
                                    .build(), handler);
                        }
                    })
                    .connect(server.host(), server.port()).sync().channel();
        } catch (RuntimeException | InterruptedException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    H2Client(TestServer server) throws InterruptedException {
        this(server, 1024 * 1024, true);
    }

    /** Sends a request (END_STREAM after the headers, or after {@code body}); returns the stream id. */
    int request(String method, String path, byte[] body) throws Exception {
        return request(method, path, body, new DefaultHttp2Headers(), body == null);
    }

    /**
     * Sends a request with extra headers; with neither {@code body} nor {@code endStream} the request stays open,
     * as if its body were still coming.
     */
    int request(String method, String path, byte[] body, Http2Headers extra, boolean endStream) throws Exception {
        return channel.eventLoop().submit(() -> {
            Http2FrameStream stream = handler.newStream();
            Http2Headers headers = new DefaultHttp2Headers().method(method).path(path).scheme("http")
                    .authority("127.0.0.1");
            headers.add(extra);
            channel.write(new DefaultHttp2HeadersFrame(headers, body == null && endStream).stream(stream));
            if (body != null) {
                channel.write(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(body), true).stream(stream));
            }
            channel.flush();
            frameStreams.put(stream.id(), stream);
            queue(stream.id()); // now, so a close that comes before the caller waits still reaches the stream
            return stream.id();
        }).get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    Response get(String path) throws Exception {
        return await(request("GET", path, null));
    }

    /** The next event on a stream, or null after {@code millis}. */
    Event next(int streamId, long millis) throws InterruptedException {
        return queue(streamId).poll(millis, TimeUnit.MILLISECONDS);
    }

    /** The next connection-level event (SETTINGS, GOAWAY, close), or null after {@code millis}. */
    Event nextOnConnection(long millis) throws InterruptedException {
        return connection.poll(millis, TimeUnit.MILLISECONDS);
    }

    /** Waits until the stream ends (END_STREAM, RST_STREAM or the connection closing). */
    Response await(int streamId) throws InterruptedException, TimeoutException {
        Response r = new Response();
        while (true) {
            Event e = next(streamId, TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
            switch (e) {
                case null -> throw new TimeoutException("stream " + streamId + " did not end");
                case Headers h when r.headers == null || h.headers().status() != null -> {
                    r.headers = h.headers();
                    if (h.endStream()) {
                        return r;
                    }
                }
                case Headers h -> {
                    r.trailers = h.headers();
                    return r;
                }
                case Data d -> {
                    r.body.writeBytes(d.bytes());
                    if (d.endStream()) {
                        return r;
                    }
                }
                case Reset rst -> {
                    r.resetCode = rst.errorCode();
                    return r;
                }
                case StreamError se -> {
                    r.streamErrorCode = se.errorCode();
                    return r;
                }
                case Closed c -> {
                    r.connectionClosed = true;
                    return r;
                }
                default -> throw new IllegalStateException("unexpected on a stream: " + e);
            }
        }
    }

    /** Returns {@code bytes} of flow-control credit on a stream (and the connection). */
    void windowUpdate(int streamId, int bytes) throws InterruptedException, ExecutionException, TimeoutException {
        Http2FrameStream stream = frameStreams.get(streamId);
        channel.eventLoop().submit(() -> channel.writeAndFlush(new DefaultHttp2WindowUpdateFrame(bytes).stream(stream)))
                .get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    boolean isOpen() {
        return channel.isActive();
    }

    @Override
    public void close() {
        channel.close().awaitUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    private BlockingQueue<Event> queue(int streamId) {
        return streams.computeIfAbsent(streamId, k -> new LinkedBlockingQueue<>());
    }

    /** Reported by the codec, not the server: this client found the stream's frames malformed. */
    record StreamError(long errorCode) implements Event {
    }

    private final class FrameHandler extends Http2ChannelDuplexHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                switch (msg) {
                    case Http2SettingsFrame s -> connection.add(new Settings(s.settings()));
                    case Http2HeadersFrame h -> queue(h.stream().id()).add(new Headers(h.headers(), h.isEndStream()));
                    case Http2DataFrame d -> {
                        queue(d.stream().id()).add(new Data(ByteBufUtil.getBytes(d.content()), d.isEndStream()));
                        if (autoWindow && d.initialFlowControlledBytes() > 0) {
                            ctx.write(new DefaultHttp2WindowUpdateFrame(d.initialFlowControlledBytes())
                                    .stream(d.stream()));
                        }
                    }
                    case Http2ResetFrame r -> queue(r.stream().id()).add(new Reset(r.errorCode()));
                    case Http2GoAwayFrame g -> connection.add(new GoAway(g.errorCode()));
                    default -> { }
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            connection.add(new Closed());
            for (BlockingQueue<Event> q : streams.values()) {
                q.add(new Closed());
            }
            super.channelInactive(ctx);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof Http2FrameStreamException e) {
                queue(e.stream().id()).add(new StreamError(e.error().code()));
            } else {
                ctx.close();
            }
        }
    }
}
