package dev.strand.testkit;

import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Endpoints that answer late, slowly or never. Waiting is always a timer on the connection's event loop:
 * a sleeping thread would stall every other connection that loop serves.
 */
final class TimedEndpoints {

    /** Reads the request and never answers; the connection stays open until the client closes it. */
    static final Exchange NEVER = Exchange.of(c -> { });

    private TimedEndpoints() {
    }

    /** {@code /delay/MS}: answers like {@code /small} after MS milliseconds. */
    static final class Delay extends Exchange {
        private final long millis;
        private ScheduledFuture<?> timer;

        Delay(long millis) {
            this.millis = millis;
        }

        @Override
        void onRequestComplete(HttpConnection c) {
            c.stats().holding();
            timer = c.ctx().executor().schedule(() -> {
                c.stats().released();
                BasicEndpoints.sendSmall(c);
            }, millis, TimeUnit.MILLISECONDS);
        }

        @Override
        void onClose(HttpConnection c) {
            if (timer != null && timer.cancel(false)) {
                c.stats().released();
            }
        }
    }

    /**
     * {@code /drip?bytes=N&delay=MS&interval=MS} (defaults 10, 0, 100): after {@code delay} sends the head
     * (Content-Length N) and byte 0 of the Payloads sequence, then one more byte every {@code interval} ms.
     */
    static final class Drip extends Exchange {
        private HttpConnection conn;
        private long total;
        private long interval;
        private long sent;
        private ScheduledFuture<?> timer;

        @Override
        void onRequestComplete(HttpConnection c) {
            conn = c;
            total = Routes.parseNonNegative(c.param("bytes", "10"));
            long delay = Routes.parseNonNegative(c.param("delay", "0"));
            interval = Routes.parseNonNegative(c.param("interval", "100"));
            if (total < 0 || delay < 0 || interval < 0) {
                Routes.badRequest("bytes, delay and interval must be non-negative numbers").onRequestComplete(c);
                return;
            }
            timer = c.ctx().executor().schedule(this::start, delay, TimeUnit.MILLISECONDS);
        }

        private void start() {
            HttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            res.headers()
                    .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_OCTET_STREAM)
                    .set(HttpHeaderNames.CONTENT_LENGTH, total);
            conn.sendHead(res);
            if (conn.isHead()) {
                total = 0;
            }
            drip();
        }

        private void drip() {
            if (sent == total) {
                conn.endResponse();
                return;
            }
            conn.sendContent(new DefaultHttpContent(Canned.pattern(sent++, 1)));
            conn.flushSoon();
            if (sent == total) {
                conn.endResponse();
            } else {
                timer = conn.ctx().executor().schedule(this::drip, interval, TimeUnit.MILLISECONDS);
            }
        }

        @Override
        void onClose(HttpConnection c) {
            if (timer != null) {
                timer.cancel(false);
            }
        }
    }
}
