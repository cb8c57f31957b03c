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

/** Endpoints for the client's helpers: {@code /gunzip} (a request body's Content-Encoding undone). */
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
}
