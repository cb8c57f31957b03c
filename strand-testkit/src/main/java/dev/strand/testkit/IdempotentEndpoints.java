package dev.strand.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** {@code /idempotent} (a write deduplicated by its key, see {@link IdempotencyLedger}) and its counts. */
final class IdempotentEndpoints {

    /** Largest body a write may have. */
    static final int MAX_BODY = 1024 * 1024;

    static final Exchange STATS = Exchange.of(c -> {
        IdempotencyLedger l = c.stats().idempotency();
        c.sendJson(new Json().beginObject()
                .name("requests").value(l.requests())
                .name("effectiveWrites").value(l.effectiveWrites())
                .name("replays").value(l.replays())
                .name("conflicts").value(l.conflicts())
                .name("missingKeys").value(l.missingKeys())
                .name("inProgress").value(l.inProgress())
                .endObject());
    });

    private IdempotentEndpoints() {
    }

    /**
     * {@code /idempotent?header=NAME&delay=MS}: the key from header NAME ({@code Idempotency-Key}); the write takes
     * effect when the request has been read, and the answer leaves MS (0) ms later, so that a test can fail a
     * client between the two.
     */
    static final class Write extends Exchange {
        private ByteBuf body;
        private ScheduledFuture<?> timer;
        private boolean holding;

        @Override
        void onContent(HttpConnection c, HttpContent content) {
            ByteBuf piece = content.content();
            if (!piece.isReadable()) {
                return;
            }
            if (body == null) {
                body = c.ctx().alloc().heapBuffer(piece.readableBytes(), MAX_BODY);
            }
            if (piece.readableBytes() > body.maxWritableBytes()) {
                // Too large for a write: the ledger sees the first MAX_BODY bytes, which a test never exceeds.
                return;
            }
            body.writeBytes(piece, piece.readerIndex(), piece.readableBytes());
        }

        @Override
        void onRequestComplete(HttpConnection c) {
            IdempotencyLedger ledger = c.stats().idempotency();
            String key = IdempotencyLedger.parseKey(c.request().headers().get(c.param("header", "Idempotency-Key")));
            byte[] bytes = body == null ? new byte[0] : ByteBufUtil.getBytes(body);
            release();
            long delay = Routes.parseNonNegative(c.param("delay", "0"));
            if (delay > 0) {
                // Counted as answering before the write shows: a reader who sees the write sees it in progress.
                holding = true;
                ledger.answering(1);
            }
            IdempotencyLedger.Outcome outcome = ledger.record(key, bytes);
            if (delay <= 0) {
                c.send(answer(outcome, key));
                return;
            }
            // The response is built when it leaves: a cancelled timer then holds no buffer.
            timer = c.ctx().executor().schedule(() -> {
                done(c);
                c.send(answer(outcome, key));
            }, delay, TimeUnit.MILLISECONDS);
        }

        private static FullHttpResponse answer(IdempotencyLedger.Outcome outcome, String key) {
            FullHttpResponse res = switch (outcome) {
                case MISSING_KEY -> json(HttpResponseStatus.BAD_REQUEST, new Json().beginObject()
                        .name("error").value("no idempotency key").endObject());
                case CONFLICT -> json(HttpResponseStatus.UNPROCESSABLE_ENTITY, new Json().beginObject()
                        .name("error").value("key reused with another body").name("key").value(key).endObject());
                case WRITTEN, REPLAYED -> json(HttpResponseStatus.CREATED, new Json().beginObject()
                        .name("key").value(key).name("replayed").value(outcome == IdempotencyLedger.Outcome.REPLAYED)
                        .endObject());
            };
            if (outcome == IdempotencyLedger.Outcome.REPLAYED) {
                res.headers().set("idempotent-replayed", "true");
            }
            return res;
        }

        private void done(HttpConnection c) {
            if (holding) {
                holding = false;
                c.stats().idempotency().answering(-1);
            }
        }

        @Override
        void onClose(HttpConnection c) {
            release();
            if (timer != null && timer.cancel(false)) {
                done(c);
            }
        }

        private void release() {
            if (body != null) {
                body.release();
                body = null;
            }
        }

        private static FullHttpResponse json(HttpResponseStatus status, Json json) {
            return HttpConnection.response(status, HttpHeaderValues.APPLICATION_JSON, json.toBytes());
        }
    }
}
