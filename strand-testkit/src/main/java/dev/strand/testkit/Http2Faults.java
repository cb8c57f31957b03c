package dev.strand.testkit;

import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2Error;
import java.nio.charset.StandardCharsets;

/** The HTTP/2 forms of the {@link FaultEndpoints}; the mapping is documented there. */
final class Http2Faults {

    private Http2Faults() {
    }

    static void closeAfterHeaders(HttpConnection c) {
        c.ctx().writeAndFlush(head("text/plain", 100)).addListener(f -> c.dropConnection());
    }

    static void resetMidBody(HttpConnection c) {
        c.ctx().write(head(HttpHeaderValues.APPLICATION_OCTET_STREAM, 100_000));
        c.ctx().writeAndFlush(new DefaultHttpContent(Canned.pattern(0, FaultEndpoints.RESET_AFTER_BYTES)))
                .addListener(f -> c.resetStream(Http2Error.INTERNAL_ERROR));
    }

    static void wrongLength(HttpConnection c) {
        FullHttpResponse res = HttpConnection.response(HttpResponseStatus.OK, "text/plain",
                "0123456789".getBytes(StandardCharsets.US_ASCII));
        res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 1000);
        c.send(res);
    }

    static void badStatus(HttpConnection c) {
        // Written as a frame, past the HTTP/1 conversion, which would insist on a numeric status.
        c.ctx().writeAndFlush(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers(false).status("abc"), true))
                .addListener(f -> c.closeNow());
    }

    static void hugeHeaders(HttpConnection c) {
        FullHttpResponse res = HttpConnection.status(HttpResponseStatus.OK);
        String filler = "f".repeat(1000);
        for (int i = 0; i < 140; i++) {
            res.headers().set("x-filler-" + i, filler);
        }
        c.send(res);
    }

    static void notApplicable(HttpConnection c, String name) {
        c.send(HttpConnection.response(HttpResponseStatus.NOT_FOUND, "text/plain; charset=utf-8",
                ("/fault/" + name + " breaks HTTP/1.1 framing; it has no HTTP/2 form\n")
                        .getBytes(StandardCharsets.UTF_8)));
    }

    private static HttpResponse head(CharSequence contentType, int contentLength) {
        HttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        res.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, contentType)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, contentLength);
        return res;
    }
}
