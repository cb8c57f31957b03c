package dev.strand.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Endpoints that read the request body: one aggregating ({@code /echo}), one streaming ({@code /sink}). */
final class BodyEndpoints {

    /** Largest body {@code /echo} aggregates; more is answered with 413. */
    static final int MAX_ECHO_BODY = 16 * 1024 * 1024;

    private BodyEndpoints() {
    }

    static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** Answers with a JSON description of the request, body included. */
    static final class Echo extends Exchange {
        private ByteBuf body;

        @Override
        void onRequest(HttpConnection c) {
            String length = c.request().headers().get(HttpHeaderNames.CONTENT_LENGTH);
            if (length != null && Routes.parseNonNegative(length) > MAX_ECHO_BODY) {
                tooLarge(c);
            }
        }

        @Override
        void onContent(HttpConnection c, HttpContent content) {
            ByteBuf piece = content.content();
            if (!piece.isReadable()) {
                return;
            }
            if (body == null) {
                body = c.ctx().alloc().heapBuffer(Math.min(piece.readableBytes(), MAX_ECHO_BODY), MAX_ECHO_BODY);
            }
            if (piece.readableBytes() > body.maxWritableBytes()) {
                release();
                tooLarge(c);
                return;
            }
            body.writeBytes(piece, piece.readerIndex(), piece.readableBytes());
        }

        @Override
        void onRequestComplete(HttpConnection c) {
            HttpRequest req = c.request();
            String text = body == null ? "" : body.toString(StandardCharsets.UTF_8);
            int length = body == null ? 0 : body.readableBytes();
            release();
            c.sendJson(new Json().beginObject()
                    .name("method").value(req.method().name())
                    .name("path").value(c.path())
                    .name("query").value(c.rawQuery())
                    .name("headers").value(BasicEndpoints.headerMap(req.headers()))
                    .name("body").value(text)
                    .name("bodyLength").value(length)
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

        private static void tooLarge(HttpConnection c) {
            c.sendAndClose(HttpConnection.status(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE));
        }
    }

    /** Counts and hashes a body of any size as it streams in; answers {"bytes": N, "sha256": "hex"}. */
    static final class Sink extends Exchange {
        private final MessageDigest sha256 = newSha256();
        private long bytes;

        @Override
        boolean acceptsExpectation(HttpConnection c) {
            return !"1".equals(c.param("reject", "0"));
        }

        @Override
        void onContent(HttpConnection c, HttpContent content) {
            ByteBuf piece = content.content();
            bytes += piece.readableBytes();
            if (piece.nioBufferCount() == 1) {
                sha256.update(piece.nioBuffer());
            } else {
                for (ByteBuffer b : piece.nioBuffers()) {
                    sha256.update(b);
                }
            }
        }

        @Override
        void onRequestComplete(HttpConnection c) {
            c.sendJson(new Json().beginObject()
                    .name("bytes").value(bytes)
                    .name("sha256").value(HexFormat.of().formatHex(sha256.digest()))
                    .endObject());
        }
    }
}
