package dev.strand.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.nio.charset.StandardCharsets;

/**
 * Bodies produced piece by piece, written only while the channel is writable, so a multi-GiB response costs
 * the server no more memory than the write-buffer high-water mark.
 */
final class StreamingEndpoints {

    // Pieces written per event-loop turn, so one fast stream cannot starve the loop's other connections.
    private static final int PIECES_PER_TURN = 16;

    private StreamingEndpoints() {
    }

    /** {@code /bytes/N}: N pattern bytes with Content-Length, in 64 KiB pieces. */
    static Exchange bytes(long n) {
        return new PatternStream(n, Canned.MAX_SLICE, false);
    }

    /** {@code /chunked/N}: N pattern bytes, chunked, 8 KiB per chunk. */
    static Exchange chunked(long n) {
        return new PatternStream(n, 8 * 1024, true);
    }

    /** {@code /trailers/N}: as {@code /chunked/N}, then the trailer {@code x-checksum: <sha256 hex of the body>}. */
    static Exchange trailers(long n) {
        return new PatternStream(n, 8 * 1024, true, BodyEndpoints.newSha256());
    }

    /** {@code /stream/N}: N JSON lines, chunked, one chunk per line. */
    static Exchange lines(long n) {
        return new LineStream(n);
    }

    /** Writes the head, then pulls pieces from {@link #next()} while the channel is writable. */
    abstract static class Streamer extends Exchange {
        private HttpConnection conn;
        private boolean pumping;
        private boolean finished;

        abstract HttpResponse head();

        abstract boolean hasNext();

        abstract ByteBuf next();

        /** The end of the body; trailers go here. */
        LastHttpContent last() {
            return LastHttpContent.EMPTY_LAST_CONTENT;
        }

        @Override
        final void onRequestComplete(HttpConnection c) {
            conn = c;
            c.sendHead(head());
            if (c.isHead()) {
                finished = true;
                c.endResponse();
            } else {
                pump();
            }
        }

        @Override
        final void onWritable(HttpConnection c) {
            pump();
        }

        @Override
        final void onClose(HttpConnection c) {
            finished = true;
        }

        private void pump() {
            if (pumping || finished) {
                return;
            }
            pumping = true;
            try {
                Channel ch = conn.channel();
                int budget = PIECES_PER_TURN;
                while (hasNext() && budget > 0) {
                    if (!ch.isWritable()) {
                        conn.ctx().flush();
                        if (!ch.isWritable()) {
                            break; // channelWritabilityChanged resumes us.
                        }
                    }
                    conn.sendContent(new DefaultHttpContent(next()));
                    budget--;
                }
                if (!hasNext()) {
                    finished = true;
                    conn.endResponse(last());
                    conn.ctx().flush();
                } else {
                    conn.ctx().flush();
                    if (budget == 0 && ch.isActive()) {
                        ch.eventLoop().execute(this::pump);
                    }
                }
            } finally {
                pumping = false;
            }
        }
    }

    private static final class PatternStream extends Streamer {
        private static final String CHECKSUM = "x-checksum";

        private final long total;
        private final int piece;
        private final boolean chunked;
        // Non-null: hash the body and send the hash as a trailer.
        private final MessageDigest digest;
        private long sent;

        PatternStream(long total, int piece, boolean chunked) {
            this(total, piece, chunked, null);
        }

        PatternStream(long total, int piece, boolean chunked, MessageDigest digest) {
            this.total = total;
            this.piece = piece;
            this.chunked = chunked;
            this.digest = digest;
        }

        @Override
        HttpResponse head() {
            HttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            res.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_OCTET_STREAM);
            if (chunked) {
                res.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            } else {
                res.headers().set(HttpHeaderNames.CONTENT_LENGTH, total);
            }
            if (digest != null) {
                res.headers().set(HttpHeaderNames.TRAILER, CHECKSUM);
            }
            return res;
        }

        @Override
        boolean hasNext() {
            return sent < total;
        }

        @Override
        ByteBuf next() {
            int n = (int) Math.min(piece, total - sent);
            ByteBuf slice = Canned.pattern(sent, n);
            sent += n;
            if (digest != null) {
                digest.update(slice.nioBuffer());
            }
            return slice;
        }

        @Override
        LastHttpContent last() {
            if (digest == null) {
                return LastHttpContent.EMPTY_LAST_CONTENT;
            }
            LastHttpContent last = new DefaultLastHttpContent();
            last.trailingHeaders().set(CHECKSUM, HexFormat.of().formatHex(digest.digest()));
            return last;
        }
    }

    private static final class LineStream extends Streamer {
        private final long total;
        private long sent;

        LineStream(long total) {
            this.total = total;
        }

        @Override
        HttpResponse head() {
            HttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            res.headers()
                    .set(HttpHeaderNames.CONTENT_TYPE, "application/x-ndjson")
                    .set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            return res;
        }

        @Override
        boolean hasNext() {
            return sent < total;
        }

        @Override
        ByteBuf next() {
            String line = new Json().beginObject()
                    .name("id").value(sent)
                    .name("message").value("line " + sent + " of " + total)
                    .endObject() + "\n";
            sent++;
            return Unpooled.wrappedBuffer(line.getBytes(StandardCharsets.UTF_8));
        }
    }
}
