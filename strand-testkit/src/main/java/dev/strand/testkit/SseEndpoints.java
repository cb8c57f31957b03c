package dev.strand.testkit;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Server-sent event streams ({@code text/event-stream}). Pauses are timers on the connection's event loop, and
 * every stream stops its timer when the client goes away.
 */
final class SseEndpoints {

    static final String MEDIA_TYPE = "text/event-stream";

    /**
     * {@link SseStreams#SPLIT_TEXT} cut where a parser is most likely to stumble: after a CR whose LF starts the
     * next piece (twice, the second time in a blank line), inside a two-byte and a three-byte UTF-8 sequence, and
     * after a CR followed by another CR (two line ends, not one).
     */
    static final byte[][] SPLIT = cut(SseStreams.SPLIT_TEXT.getBytes(StandardCharsets.UTF_8),
            bytesBefore("\ndata: second"),
            bytesBefore("\nid: 7"),
            bytesBefore("é") + 1,
            bytesBefore("☃") + 2,
            bytesBefore("\r: keep-alive"));

    /** {@code /sse/wrong-type}: an event stream's bytes, labelled text/plain. */
    static final Exchange WRONG_TYPE = Exchange.of(c -> c.send(HttpConnection.response(HttpResponseStatus.OK,
            "text/plain; charset=utf-8", "data: not an event stream\n\n".getBytes(StandardCharsets.UTF_8))));

    // Streams of /sse/gated waiting for /sse/release, by key; removed when released or closed.
    private static final Map<String, Gated> GATED = new ConcurrentHashMap<>();

    private SseEndpoints() {
    }

    private static int bytesBefore(String marker) {
        String text = SseStreams.SPLIT_TEXT;
        return text.substring(0, text.indexOf(marker)).getBytes(StandardCharsets.UTF_8).length;
    }

    private static byte[][] cut(byte[] bytes, int... offsets) {
        byte[][] out = new byte[offsets.length + 1][];
        int from = 0;
        for (int i = 0; i <= offsets.length; i++) {
            int to = i < offsets.length ? offsets[i] : bytes.length;
            out[i] = Arrays.copyOfRange(bytes, from, to);
            from = to;
        }
        return out;
    }

    private static HttpResponse head(HttpConnection c) {
        HttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        res.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, MEDIA_TYPE + "; charset=utf-8")
                .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE)
                .set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        String lastEventId = c.request().headers().get("Last-Event-ID");
        if (lastEventId != null) {
            res.headers().set("x-last-event-id", lastEventId);
        }
        return res;
    }

    private static void send(HttpConnection c, String text) {
        send(c, text.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpConnection c, byte[] bytes) {
        c.sendContent(new DefaultHttpContent(Unpooled.wrappedBuffer(bytes)));
        c.flushSoon();
    }

    /** Base of the timed streams: sends the head, then calls {@link #step} every {@code interval} ms. */
    abstract static class Timed extends Exchange {
        HttpConnection conn;
        private long interval;
        private ScheduledFuture<?> timer;

        /** Sends the next piece; false ends the response. */
        abstract boolean step();

        void start(HttpConnection c, long intervalMillis) {
            conn = c;
            interval = intervalMillis;
            c.sendHead(head(c));
            if (c.isHead()) {
                c.endResponse();
            } else {
                run();
            }
        }

        private void run() {
            timer = null;
            if (step()) {
                timer = conn.ctx().executor().schedule(this::run, interval, TimeUnit.MILLISECONDS);
            } else {
                conn.endResponse();
            }
        }

        @Override
        void onClose(HttpConnection c) {
            if (timer != null) {
                timer.cancel(false);
            }
        }
    }

    /**
     * {@code /sse?count=N&interval=MS} (3, 0): N {@link SseStreams#tick} events, numbered from 1, or from K+1 after a
     * {@code Last-Event-ID: K}; a comment keep-alive before each but the first.
     */
    static final class Ticks extends Timed {
        private long first;
        private long next;
        private long end;

        @Override
        void onRequestComplete(HttpConnection c) {
            long count = Routes.parseNonNegative(c.param("count", "3"));
            long interval = Routes.parseNonNegative(c.param("interval", "0"));
            String lastId = c.request().headers().get("Last-Event-ID");
            long after = lastId == null ? 0 : Routes.parseNonNegative(lastId.strip());
            if (count < 0 || interval < 0 || after < 0) {
                Routes.badRequest("count, interval and Last-Event-ID must be non-negative numbers").onRequestComplete(c);
                return;
            }
            first = after + 1;
            next = first;
            end = first + count;
            start(c, interval);
        }

        @Override
        boolean step() {
            if (next < end) {
                send(conn, SseStreams.tick(next, next == first));
                next++;
            }
            return next < end;
        }
    }

    /** {@code /sse/split}: {@link #SPLIT}, a piece every 10 ms. */
    static final class Split extends Timed {
        private int piece;

        @Override
        void onRequestComplete(HttpConnection c) {
            start(c, 10);
        }

        @Override
        boolean step() {
            send(conn, SPLIT[piece++]);
            return piece < SPLIT.length;
        }
    }

    /** {@code /sse/endless}: a tick every 50 ms until the client goes away. */
    static final class Endless extends Timed {
        private long n;

        @Override
        void onRequestComplete(HttpConnection c) {
            start(c, 50);
        }

        @Override
        boolean step() {
            n++;
            send(conn, SseStreams.tick(n, n == 1));
            return true;
        }
    }

    /**
     * {@code /sse/gated?key=K}: tick 1, then nothing until {@code /sse/release?key=K} arrives (on any connection),
     * then tick 2 and the end. Proves the client delivers an event before the server has sent the next.
     */
    static final class Gated extends Exchange {
        private HttpConnection conn;
        private String key;

        @Override
        void onRequestComplete(HttpConnection c) {
            conn = c;
            key = c.param("key", "");
            if (key.isEmpty() || GATED.putIfAbsent(key, this) != null) {
                Routes.badRequest("a fresh key=K is required").onRequestComplete(c);
                return;
            }
            c.sendHead(head(c));
            send(c, SseStreams.tick(1, true));
        }

        private void release() {
            send(conn, SseStreams.tick(2, false));
            conn.endResponse();
        }

        @Override
        void onClose(HttpConnection c) {
            if (key != null) {
                GATED.remove(key, this);
            }
        }
    }

    /** {@code /sse/release?key=K}: lets {@code /sse/gated?key=K} go on; 200, or 404 if no stream waits on K. */
    static final Exchange RELEASE = Exchange.of(c -> {
        Gated gated = GATED.remove(c.param("key", ""));
        if (gated == null) {
            c.send(HttpConnection.response(HttpResponseStatus.NOT_FOUND, "text/plain; charset=utf-8",
                    "no stream waits on that key\n".getBytes(StandardCharsets.UTF_8)));
            return;
        }
        gated.conn.ctx().executor().execute(gated::release);
        c.send(HttpConnection.status(HttpResponseStatus.OK));
    });
}
