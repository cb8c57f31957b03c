package dev.strand.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.zip.GZIPInputStream;

/**
 * Endpoints for the client's helpers: {@code /gunzip} (a request body's Content-Encoding undone) and
 * {@code /range/N} (a resource that serves byte ranges).
 */
final class HelperEndpoints {

    /** Largest request body {@code /gunzip} takes off the wire. */
    static final int MAX_WIRE_BODY = 32 * 1024 * 1024;

    private HelperEndpoints() {
    }

    /**
     * {@code /gunzip}: reads the request body, gunzips it if its Content-Encoding is gzip, answers
     * {"encoding": "gzip"|"", "wireBytes": N, "bytes": M, "sha256": "hex of the decoded body"}, or 400 if it
     * does not inflate.
     */
    static final class Gunzip extends Exchange {
        private ByteBuf body;

        @Override
        void onContent(HttpConnection c, HttpContent content) {
            ByteBuf piece = content.content();
            if (!piece.isReadable()) {
                return;
            }
            if (body == null) {
                body = c.ctx().alloc().heapBuffer(piece.readableBytes(), MAX_WIRE_BODY);
            }
            if (piece.readableBytes() > body.maxWritableBytes()) {
                release();
                c.sendAndClose(HttpConnection.status(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE));
                return;
            }
            body.writeBytes(piece, piece.readerIndex(), piece.readableBytes());
        }

        @Override
        void onRequestComplete(HttpConnection c) {
            String encoding = c.request().headers().get(HttpHeaderNames.CONTENT_ENCODING, "");
            int wire = body == null ? 0 : body.readableBytes();
            MessageDigest sha256 = BodyEndpoints.newSha256();
            long bytes = 0;
            try (InputStream raw = body == null ? InputStream.nullInputStream() : new ByteBufInputStream(body);
                    InputStream in = encoding.equalsIgnoreCase("gzip") ? new GZIPInputStream(raw) : raw) {
                byte[] buf = new byte[64 * 1024];
                int n;
                while ((n = in.read(buf)) >= 0) {
                    sha256.update(buf, 0, n);
                    bytes += n;
                }
            } catch (IOException e) {
                release();
                c.send(HttpConnection.response(HttpResponseStatus.BAD_REQUEST, "text/plain; charset=utf-8",
                        ("does not inflate: " + e + "\n").getBytes(StandardCharsets.UTF_8)));
                return;
            }
            release();
            c.sendJson(new Json().beginObject()
                    .name("encoding").value(encoding)
                    .name("wireBytes").value(wire)
                    .name("bytes").value(bytes)
                    .name("sha256").value(HexFormat.of().formatHex(sha256.digest()))
                    .endObject());
        }

        @Override
        void onClose(HttpConnection c) {
            release();
        }

        private void release() {
            if (body != null) {
                body.release();
                body = null;
            }
        }
    }

    /** Byte {@code i} of every {@code /range/N} resource. */
    static byte rangeByte(long i) {
        return (byte) (i % 251);
    }

    /**
     * {@code /range/N}: N bytes (byte i is {@code i % 251}) with {@code ETag: "vV"} ({@code ?version=V}, default 1)
     * and {@code Accept-Ranges: bytes}. {@code Range: bytes=A-} gives 206 from A, unless an {@code If-Range} does not
     * match the ETag (then 200, the whole); A at or past N gives 416 with {@code Content-Range: bytes *}{@code /N}.
     * {@code ?cut=K} sends only K body bytes, then closes the connection; {@code ?stall=K} sends K, then nothing; {@code ?badStart=1} answers a range
     * request with a 206 that starts at 0.
     */
    static Exchange range(long n) {
        return Exchange.of(c -> {
            String etag = "\"v" + c.param("version", "1") + "\"";
            String range = c.request().headers().get(HttpHeaderNames.RANGE);
            String ifRange = c.request().headers().get(HttpHeaderNames.IF_RANGE);
            long from = 0;
            if (range != null && range.startsWith("bytes=") && range.endsWith("-")
                    && (ifRange == null || ifRange.equals(etag))) {
                from = Routes.parseNonNegative(range.substring(6, range.length() - 1));
                if (from < 0) {
                    Routes.badRequest("unsupported Range: " + range).onRequestComplete(c);
                    return;
                }
                if (from >= n) {
                    io.netty.handler.codec.http.FullHttpResponse res =
                            HttpConnection.status(HttpResponseStatus.REQUESTED_RANGE_NOT_SATISFIABLE);
                    res.headers().set(HttpHeaderNames.CONTENT_RANGE, "bytes */" + n);
                    c.send(res);
                    return;
                }
                if ("1".equals(c.param("badStart", "0"))) {
                    from = 0;
                    range = "bad";
                }
            }
            boolean partial = range != null && (from > 0 || "bad".equals(range));
            byte[] body = new byte[(int) (n - from)];
            for (int i = 0; i < body.length; i++) {
                body[i] = rangeByte(from + i);
            }
            io.netty.handler.codec.http.HttpResponse head = new io.netty.handler.codec.http.DefaultHttpResponse(
                    io.netty.handler.codec.http.HttpVersion.HTTP_1_1,
                    partial ? HttpResponseStatus.PARTIAL_CONTENT : HttpResponseStatus.OK);
            head.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/octet-stream")
                    .set(HttpHeaderNames.CONTENT_LENGTH, body.length)
                    .set(HttpHeaderNames.ETAG, etag)
                    .set(HttpHeaderNames.ACCEPT_RANGES, "bytes");
            if (partial) {
                head.headers().set(HttpHeaderNames.CONTENT_RANGE, "bytes " + from + "-" + (n - 1) + "/" + n);
            }
            long cut = Routes.parseNonNegative(c.param("cut", "-1"));
            long stall = Routes.parseNonNegative(c.param("stall", "-1"));
            c.sendHead(head);
            if (stall >= 0 && stall < body.length) {
                c.sendContent(new io.netty.handler.codec.http.DefaultHttpContent(
                        io.netty.buffer.Unpooled.wrappedBuffer(body, 0, (int) stall)));
                c.ctx().flush();
                return; // and nothing more, until the client gives up
            }
            if (cut >= 0 && cut < body.length) {
                c.sendContent(new io.netty.handler.codec.http.DefaultHttpContent(
                        io.netty.buffer.Unpooled.wrappedBuffer(body, 0, (int) cut)));
                c.ctx().flush();
                c.channel().close();
                return;
            }
            c.sendContent(new io.netty.handler.codec.http.DefaultHttpContent(io.netty.buffer.Unpooled.wrappedBuffer(body)));
            c.endResponse();
        });
    }

    /** {@code /hsts?sts=V}: 200 with {@code Strict-Transport-Security: V} and the scheme it was asked over. */
    static final Exchange HSTS = Exchange.of(c -> {
        io.netty.handler.codec.http.FullHttpResponse res = HttpConnection.response(HttpResponseStatus.OK,
                "text/plain; charset=utf-8", "hsts\n".getBytes(StandardCharsets.UTF_8));
        String sts = c.param("sts", null);
        if (sts != null) {
            res.headers().set("Strict-Transport-Security", sts);
        }
        c.send(res);
    });
}
