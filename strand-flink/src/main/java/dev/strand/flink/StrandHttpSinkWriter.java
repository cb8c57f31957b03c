package dev.strand.flink;

import dev.strand.Client;
import dev.strand.HttpException;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.Response;
import dev.strand.flink.internal.ClientLease;
import dev.strand.flink.internal.StrandMetrics;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.base.sink.writer.AsyncSinkWriter;
import org.apache.flink.connector.base.sink.writer.BufferedRequestState;
import org.apache.flink.connector.base.sink.writer.ElementConverter;
import org.apache.flink.connector.base.sink.writer.ResultHandler;
import org.apache.flink.connector.base.sink.writer.config.AsyncSinkWriterConfiguration;

/**
 * The writer of {@link StrandHttpSink}: sends each batch Flink hands it (one request per entry, or one per batch),
 * and reports back through Flink's {@link ResultHandler}: done, re-queue these entries after a back-off, or fail.
 */
final class StrandHttpSinkWriter<IN> extends AsyncSinkWriter<IN, HttpSinkEntry> {

    private final StrandHttpSink.Options options;
    private final ClientLease lease;
    private final Client client;
    private final StrandMetrics metrics;

    StrandHttpSinkWriter(ElementConverter<IN, HttpSinkEntry> converter, WriterInitContext context,
            AsyncSinkWriterConfiguration config, StrandHttpSink.Options options,
            Collection<BufferedRequestState<HttpSinkEntry>> state) {
        super(converter, context, config, state);
        this.options = options;
        this.lease = ClientLease.open(options.settings());
        this.client = lease.client();
        this.metrics = new StrandMetrics(context.metricGroup());
    }

    @Override
    protected void submitRequestEntries(List<HttpSinkEntry> entries, ResultHandler<HttpSinkEntry> handler) {
        if (options.batching()) {
            List<byte[]> bodies = new ArrayList<>(entries.size());
            entries.forEach(e -> bodies.add(e.body()));
            Request request = Request.builder(options.batchMethod(), options.batchUrl())
                    .body(RequestBody.of(options.batchEncoder().encode(bodies), contentType(options.batchContentType())))
                    .build();
            send(request).thenAccept(outcome -> conclude(entries, List.of(outcome), handler));
        } else {
            List<CompletableFuture<Outcome>> calls = new ArrayList<>(entries.size());
            IdempotencyKeys<?> keys = options.keys();
            for (HttpSinkEntry e : entries) {
                Request.Builder r = Request.builder(e.method(), e.url())
                        .body(RequestBody.of(e.body(), contentType(e.contentType())));
                String key = e.idempotencyKey();
                if (key == null && keys != null && keys.extractor() == null) {
                    // Restored from state written before keys (version 1): the derived key is what a fresh
                    // conversion of the record would have given.
                    key = IdempotencyKeys.contentKey(e);
                }
                if (keys != null && key != null) {
                    r.header(keys.header(), keys.headerValue(key));
                }
                calls.add(send(r.build()));
            }
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).thenRun(() -> {
                List<Outcome> outcomes = new ArrayList<>(calls.size());
                calls.forEach(c -> outcomes.add(c.join()));
                conclude(entries, outcomes, handler);
            });
        }
    }

    private static String contentType(String type) {
        return type == null ? "application/octet-stream" : type;
    }

    /** Sends one request; the future never fails: failures are outcomes. */
    private CompletableFuture<Outcome> send(Request request) {
        long start = metrics.started();
        CompletableFuture<Response> call;
        try {
            call = client.async().send(request);
        } catch (RuntimeException e) {
            call = CompletableFuture.failedFuture(e);
        }
        return call.handle((response, error) -> {
            metrics.finished(start);
            if (error != null) {
                Throwable cause = Exchanges.unwrap(error);
                ErrorKind kind = ErrorKind.of(cause);
                metrics.error(kind);
                Request r = cause instanceof HttpException h && h.request() != null ? h.request() : request;
                // A sink is at-least-once: a POST that may have arrived is sent again rather than lost.
                return new Outcome(r, kind, 0, null, cause.toString(), cause, kind != ErrorKind.OTHER);
            }
            int status = response.status();
            if (status < 400) {
                return Outcome.OK;
            }
            metrics.error(ErrorKind.STATUS);
            // With keys, 409 is the draft's "a request with this key is still being processed": try again later.
            boolean retriable = status == 408 || status == 429 || status >= 500
                    || (status == 409 && options.keys() != null);
            return new Outcome(response.request() != null ? response.request() : request, ErrorKind.STATUS,
                    status, Exchanges.retryAfter(response, ZonedDateTime.now()), Exchanges.statusLine(response),
                    null, retriable);
        });
    }

    /** Entry {@code i} fared as {@code outcomes.get(i)}, or all as the single outcome of a batch request. */
    private void conclude(List<HttpSinkEntry> entries, List<Outcome> outcomes, ResultHandler<HttpSinkEntry> handler) {
        List<HttpSinkEntry> again = new ArrayList<>();
        Duration delay = Duration.ZERO;
        for (int i = 0; i < entries.size(); i++) {
            Outcome o = outcomes.size() == 1 ? outcomes.get(0) : outcomes.get(i);
            if (o == Outcome.OK) {
                continue;
            }
            HttpSinkEntry e = entries.get(i);
            int made = e.attempts() + 1;
            if (!o.retriable || made >= options.maxAttempts()) {
                String why = o.retriable ? "failed after " + made + " attempts, the last: " + o.detail
                        : "failed, not retriable: " + o.detail;
                handler.completeExceptionally(new HttpRecordException(e, o.request, o.kind, o.status, o.retryAfter, why,
                        o.cause));
                return;
            }
            again.add(e.nextAttempt());
            Duration d = options.backoff(made);
            if (o.retryAfter != null && o.retryAfter.compareTo(d) > 0) {
                d = o.retryAfter.compareTo(options.maxBackoff()) > 0 ? options.maxBackoff() : o.retryAfter;
            }
            delay = d.compareTo(delay) > 0 ? d : delay;
        }
        if (again.isEmpty()) {
            handler.complete();
            return;
        }
        metrics.retryScheduled(again.size());
        // The batch stays in flight during the back-off, so Flink sends no more than its in-flight limit meanwhile.
        CompletableFuture.delayedExecutor(delay.toMillis(), TimeUnit.MILLISECONDS)
                .execute(() -> handler.retryForEntries(again));
    }

    @Override
    protected long getSizeInBytes(HttpSinkEntry entry) {
        return entry.sizeInBytes();
    }

    @Override
    public void close() {
        try {
            super.close();
        } finally {
            lease.close();
        }
    }

    /** How one request fared; {@link #OK} for a status below 400. */
    private record Outcome(Request request, ErrorKind kind, int status, Duration retryAfter, String detail,
            Throwable cause, boolean retriable) {
        static final Outcome OK = new Outcome(null, null, 0, null, null, null, false);
    }
}
