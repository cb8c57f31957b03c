package dev.strand.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.handler.codec.http2.HttpConversionUtil;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;

/**
 * One HTTP/1.1 connection, or one HTTP/2 stream: feeds decoded requests to {@link Exchange}s one at a time and
 * gives them ways to answer. Requests that arrive (pipelined) while an exchange is still answering wait in a
 * queue, so responses always leave in request order even when an endpoint answers later or streams.
 *
 * <p>On an HTTP/2 stream, {@link Http2StreamFrameToHttpObjectCodec} sits below and turns frames into the same
 * HTTP/1 message objects, so endpoints work unchanged; only pre-encoded and raw-byte answers (which are
 * HTTP/1.1 wire format) are unavailable there, and closing means ending the stream.
 *
 * <p>Writes made while handling a read are flushed once in {@code channelReadComplete}; writes from timers
 * and writability callbacks are flushed at once.
 */
final class HttpConnection extends ChannelInboundHandlerAdapter {

    // Beyond this many queued pipelined messages, stop reading until the queue drains.
    private static final int MAX_QUEUED = 64;

    private final ConnectionStats stats;
    private final boolean http2;
    private final ArrayDeque<Object> queued = new ArrayDeque<>(4);
    private ChannelHandlerContext ctx;
    // Writes through this context skip the response encoder: for pre-encoded and deliberately broken bytes.
    private ChannelHandlerContext rawCtx;
    private HeadAwareResponseEncoder encoder;

    private Exchange current;
    private HttpRequest request;
    private String path;
    private String rawQuery;
    private Map<String, List<String>> params;
    private boolean requestDone;
    private boolean responseDone;
    private boolean keepAlive;
    private boolean http10;
    private boolean head;
    private boolean closing;
    private boolean inRead;
    private boolean needsFlush;
    private boolean draining;
    // HTTP/2 only: the last response write, for what must wait until it is on the wire.
    private ChannelFuture lastWrite;

    HttpConnection(ConnectionStats stats) {
        this(stats, false);
    }

    /** {@code http2}: this handler serves one HTTP/2 stream, below a {@link Http2StreamFrameToHttpObjectCodec}. */
    HttpConnection(ConnectionStats stats, boolean http2) {
        this.stats = stats;
        this.http2 = http2;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        if (!http2) {
            this.rawCtx = ctx.pipeline().context(HeadAwareResponseEncoder.class);
            this.encoder = (HeadAwareResponseEncoder) rawCtx.handler();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        inRead = true;
        if (closing) {
            ReferenceCountUtil.release(msg);
        } else if ((current != null && requestDone) || !queued.isEmpty()) {
            queued.add(msg);
            if (queued.size() > MAX_QUEUED) {
                ctx.channel().config().setAutoRead(false);
            }
        } else {
            handle(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        inRead = false;
        if (needsFlush) {
            needsFlush = false;
            ctx.flush();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (current != null && !closing && ctx.channel().isWritable()) {
            current.onWritable(this);
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        closing = true;
        Object msg;
        while ((msg = queued.poll()) != null) {
            ReferenceCountUtil.release(msg);
        }
        if (current != null) {
            Exchange ending = current;
            current = null;
            ending.onClose(this);
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ConnectionErrors.logUnlessRoutine(ctx, cause);
        closing = true;
        ctx.close();
    }

    private void handle(Object msg) {
        try {
            if (msg instanceof HttpRequest req) {
                start(req);
            }
            if (msg instanceof HttpContent content && current != null && !requestDone && !closing) {
                current.onContent(this, content);
                if (content instanceof LastHttpContent) {
                    if (content.decoderResult().isFailure()) {
                        badRequest(content.decoderResult().cause());
                        return;
                    }
                    requestDone = true;
                    if (!closing) {
                        current.onRequestComplete(this);
                    }
                    finishIfDone();
                }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void start(HttpRequest req) {
        request = req;
        requestDone = false;
        responseDone = false;
        params = null;
        keepAlive = HttpUtil.isKeepAlive(req);
        http10 = req.protocolVersion().equals(HttpVersion.HTTP_1_0);
        head = HttpMethod.HEAD.equals(req.method());
        if (http2) {
            removeConversionHeaders(req);
        } else {
            encoder.head = head;
        }
        splitUri(req.uri());
        if (req.decoderResult().isFailure()) {
            current = Routes.NOT_FOUND; // placeholder so the 400 below counts as this request's response
            badRequest(req.decoderResult().cause());
            return;
        }
        current = Routes.route(path);
        // HTTP/1.0 clients' Expect headers must be ignored (RFC 9110 10.1.1).
        boolean expects = !http10 && req.headers().contains(HttpHeaderNames.EXPECT);
        if (expects && (!HttpUtil.is100ContinueExpected(req) || !current.acceptsExpectation(this))) {
            sendAndClose(status(HttpResponseStatus.EXPECTATION_FAILED));
            return;
        }
        current.onRequest(this);
        // Only now: onRequest may already have answered (413), and then the client must not send the body.
        if (expects && !responseDone && !closing) {
            ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
        }
    }

    /** Drops what the HTTP/2 to HTTP/1 conversion adds, so endpoints see the headers the client sent. */
    private static void removeConversionHeaders(HttpRequest req) {
        for (HttpConversionUtil.ExtensionHeaderNames name : HttpConversionUtil.ExtensionHeaderNames.values()) {
            req.headers().remove(name.text());
        }
        // HTTP/2 forbids Transfer-Encoding, so this is the codec's marker for "length unknown", not the client's.
        req.headers().remove(HttpHeaderNames.TRANSFER_ENCODING);
    }

    private void splitUri(String uri) {
        int from = 0;
        // absolute-form (a request meant for a proxy): drop scheme and authority.
        if (uri.startsWith("http://") || uri.startsWith("https://")) {
            int slash = uri.indexOf('/', uri.indexOf("//") + 2);
            from = slash < 0 ? uri.length() : slash;
        }
        int q = uri.indexOf('?', from);
        path = q < 0 ? uri.substring(from) : uri.substring(from, q);
        if (path.isEmpty()) {
            path = "/";
        }
        rawQuery = q < 0 ? "" : uri.substring(q + 1);
    }

    private void badRequest(Throwable cause) {
        String reason = cause == null ? "bad request" : String.valueOf(cause.getMessage());
        sendAndClose(response(HttpResponseStatus.BAD_REQUEST, "text/plain; charset=utf-8",
                (reason + "\n").getBytes(StandardCharsets.UTF_8)));
    }

    private void finishIfDone() {
        if (current == null || !requestDone || !responseDone) {
            return;
        }
        current = null;
        request = null;
        if (!keepAlive) {
            closeAfterWrites();
            return;
        }
        if (draining) {
            return;
        }
        draining = true;
        try {
            Object msg;
            // Stop at a request that is fully read but not yet answered; its answer resumes the drain.
            while (!closing && (current == null || !requestDone) && (msg = queued.poll()) != null) {
                handle(msg);
            }
        } finally {
            draining = false;
        }
        if (queued.isEmpty() && !closing && !ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    // ---- What exchanges see of the request ----

    HttpRequest request() {
        return request;
    }

    String path() {
        return path;
    }

    /** The query string as sent, without '?'; empty if none. */
    String rawQuery() {
        return rawQuery;
    }

    /** Decoded query parameters. */
    Map<String, List<String>> params() {
        if (params == null) {
            params = new QueryStringDecoder(rawQuery, StandardCharsets.UTF_8, false).parameters();
        }
        return params;
    }

    /** The first value of a query parameter, or {@code fallback}. */
    String param(String name, String fallback) {
        List<String> values = params().get(name);
        return values == null || values.isEmpty() ? fallback : values.get(0);
    }

    ConnectionStats stats() {
        return stats;
    }

    Channel channel() {
        return ctx.channel();
    }

    ChannelHandlerContext ctx() {
        return ctx;
    }

    boolean isHead() {
        return head;
    }

    /** True on an HTTP/2 stream; then {@link #channel()} is the stream's channel. */
    boolean isHttp2() {
        return http2;
    }

    /** True when a pre-encoded keep-alive HTTP/1.1 response with a body fits this request exactly. */
    boolean cannedFits() {
        return keepAlive && !http10 && !head && !http2;
    }

    // ---- Ways to answer ----

    static FullHttpResponse status(HttpResponseStatus status) {
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status);
        res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
        return res;
    }

    static FullHttpResponse response(HttpResponseStatus status, CharSequence contentType, byte[] body) {
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        res.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, contentType)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return res;
    }

    void sendJson(Json json) {
        send(response(HttpResponseStatus.OK, HttpHeaderValues.APPLICATION_JSON, json.toBytes()));
    }

    /** Sends a complete response; HEAD drops the body but keeps its Content-Length. */
    void send(FullHttpResponse res) {
        if (http2 && head && res.content().isReadable()) {
            // No encoder below knows about HEAD here; an empty body makes the HEADERS frame end the stream.
            FullHttpResponse bodiless = res.replace(Unpooled.EMPTY_BUFFER);
            res.release();
            res = bodiless;
        }
        connectionHeader(res);
        write(res);
        responseDone();
    }

    /**
     * Sends a complete response and closes without reading the rest of the request: for answers given before
     * the body arrived (413, 417, 400), whose body would otherwise be misread as the next request.
     */
    void sendAndClose(FullHttpResponse res) {
        keepAlive = false;
        send(res);
        closeAfterWrites();
    }

    /** Starts a streamed response; follow with {@link #sendContent} and {@link #endResponse}. */
    void sendHead(HttpResponse res) {
        connectionHeader(res);
        write(res);
    }

    void sendContent(HttpContent content) {
        ctx.write(content, ctx.voidPromise());
    }

    void endResponse() {
        endResponse(LastHttpContent.EMPTY_LAST_CONTENT);
    }

    /** Ends a streamed response with {@code last}, which may carry trailers. */
    void endResponse(LastHttpContent last) {
        write(last);
        responseDone();
    }

    /** Sends a pre-encoded complete response; only when {@link #cannedFits()}. */
    void sendCanned(ByteBuf encoded) {
        rawCtx.write(encoded, rawCtx.voidPromise());
        flushSoon();
        responseDone();
    }

    /** Writes bytes exactly as given, bypassing the encoder, then closes the connection. */
    void sendRawAndClose(ByteBuf bytes) {
        closing = true;
        rawCtx.writeAndFlush(bytes).addListener(ChannelFutureListener.CLOSE);
    }

    /** Writes bytes exactly as given, then aborts the connection with a TCP RST (SO_LINGER 0). */
    void sendRawAndReset(ByteBuf bytes) {
        closing = true;
        rawCtx.writeAndFlush(bytes).addListener((ChannelFutureListener) f -> {
            f.channel().config().setOption(ChannelOption.SO_LINGER, 0);
            f.channel().close();
        });
    }

    /** Closes without a response (on HTTP/2: resets the stream). */
    void closeNow() {
        closing = true;
        ctx.close();
    }

    /**
     * HTTP/2 only: ends the stream at once with RST_STREAM, whatever was sent on it so far. Call it from the
     * completion of the last write that must precede it: written frames can still wait for flow-control credit,
     * and a reset discards them.
     */
    void resetStream(Http2Error error) {
        closing = true;
        ctx.writeAndFlush(new DefaultHttp2ResetFrame(error));
    }

    /**
     * HTTP/2 only: closes the TCP connection under every stream, past TLS and the HTTP/2 codec, so there is no
     * close_notify and no GOAWAY: as if the server vanished. Every other stream on the connection fails too.
     */
    void dropConnection() {
        closing = true;
        ctx.channel().parent().pipeline().firstContext().close();
    }

    /** Makes the connection close once the current response is written. */
    void closeAfterResponse() {
        keepAlive = false;
    }

    /** Flushes, unless a read is in progress (then channelReadComplete flushes once for the batch). */
    void flushSoon() {
        if (inRead) {
            needsFlush = true;
        } else {
            ctx.flush();
        }
    }

    private void write(Object msg) {
        if (http2) {
            lastWrite = ctx.write(msg);
        } else {
            ctx.write(msg, ctx.voidPromise());
        }
        flushSoon();
    }

    private void responseDone() {
        responseDone = true;
        finishIfDone();
    }

    private void connectionHeader(HttpResponse res) {
        if (http2) {
            return; // HTTP/2 has no Connection header; the codec would drop it anyway.
        }
        if (!keepAlive) {
            res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        } else if (http10) {
            res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
    }

    private void closeAfterWrites() {
        if (closing) {
            return;
        }
        closing = true;
        needsFlush = false;
        if (http2) {
            // The response ends the stream on our side; if the request is still coming, RST_STREAM(NO_ERROR)
            // asks the client to stop sending it (RFC 9113 8.1). Only once the response is out: a reset
            // discards frames still waiting for flow-control credit.
            ctx.flush();
            if (requestDone) {
                return;
            }
            lastWrite.addListener(f -> {
                if (ctx.channel().isActive()) {
                    ctx.writeAndFlush(new DefaultHttp2ResetFrame(Http2Error.NO_ERROR));
                }
            });
            return;
        }
        // Writes complete in order, so this empty write completes after everything before it is on the wire.
        rawCtx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }
}
