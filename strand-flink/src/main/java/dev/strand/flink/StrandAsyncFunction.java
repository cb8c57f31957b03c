package dev.strand.flink;

import dev.strand.Client;
import dev.strand.HttpException;
import dev.strand.Request;
import dev.strand.Response;
import dev.strand.flink.internal.ClientLease;
import dev.strand.flink.internal.StrandMetrics;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;

/**
 * Enriches a stream by calling an HTTP service per record, with Strand's async client: a Flink
 * {@code RichAsyncFunction} for {@code AsyncDataStream.orderedWait}/{@code unorderedWait} and their
 * {@code ...WithRetry} twins.
 *
 * <p>Each record becomes a request ({@link RequestMapper}); the response and the record become the output
 * ({@link ResponseMapper}). Each parallel subtask builds one {@link Client} from the {@link HttpSettings} in
 * {@link #open} and closes it in {@link #close}. A response with status 400 or above fails the record (unless
 * {@link Builder#passErrorStatuses(boolean)}), so the mapper sees successes only.
 *
 * <p>Failures: a mapper that throws, a Strand {@link dev.strand.HttpException} or an error status completes the
 * record exceptionally with an {@link HttpRecordException} naming the record; without a retry strategy that fails
 * the job. {@link StrandRetryStrategy} retries connect failures, 429 and 503. When a 429 or 503 carries
 * {@code Retry-After}, this function reports the failure only after that delay (at most
 * {@link Builder#maxRetryAfter(Duration)}), because Flink's retry strategy picks its back-off from the attempt
 * number alone: the retry then comes no sooner than the server asked. A record still unanswered at the operator's
 * timeout takes the {@link TimeoutPolicy}.
 *
 * <p>Metrics, under {@code strand} on the operator's group: {@code requests}, {@code errors.<kind>}
 * ({@link ErrorKind}), {@code inFlight}, {@code latencyMs}, {@code timeoutsDropped}, {@code timeoutsFallback}.
 *
 * {@snippet :
 * StrandAsyncFunction<String, String> lookup = StrandAsyncFunction.builder(
 *         HttpSettings.builder().baseUrl("http://users.internal:8080").poolSize(100).build(),
 *         (String id) -> Request.get("/users/" + id),
 *         (String id, Response r) -> id + "," + r.text())
 *     .timeoutPolicy(TimeoutPolicy.fallback(id -> id + ",unknown"))
 *     .build();
 * DataStream<String> enriched = AsyncDataStream.orderedWaitWithRetry(
 *     ids, lookup, 10, TimeUnit.SECONDS, 100, StrandRetryStrategy.<String>builder().maxRetries(3).build());
 * }
 *
 * @param <IN> the record type
 * @param <OUT> the output type
 */
public sealed class StrandAsyncFunction<IN, OUT> extends RichAsyncFunction<IN, OUT>
        permits StrandAsyncFunction.Typed {
    private static final long serialVersionUID = 1L;

    private final HttpSettings settings;
    private final RequestMapper<IN> requestMapper;
    private final ResponseMapper<IN, OUT> responseMapper;
    private final TimeoutPolicy<IN, OUT> timeoutPolicy;
    private final boolean passErrorStatuses;
    private final Duration maxRetryAfter;
    private final TypeInformation<OUT> outputType;

    private transient ClientLease lease;
    private transient Client client;
    private transient StrandMetrics metrics;

    StrandAsyncFunction(Builder<IN, OUT> b) {
        this.settings = b.settings;
        this.requestMapper = b.requestMapper;
        this.responseMapper = b.responseMapper;
        this.timeoutPolicy = b.timeoutPolicy;
        this.passErrorStatuses = b.passErrorStatuses;
        this.maxRetryAfter = b.maxRetryAfter;
        this.outputType = b.outputType;
    }

    /**
     * A builder for a function with these three parts.
     *
     * @param settings the client each subtask builds
     * @param requestMapper record to request
     * @param responseMapper record and response to output
     * @param <IN> the record type
     * @param <OUT> the output type
     * @return a builder; its defaults: {@link TimeoutPolicy#fail()}, error statuses fail, Retry-After waited up
     *         to 10 s
     */
    public static <IN, OUT> Builder<IN, OUT> builder(HttpSettings settings, RequestMapper<IN> requestMapper,
            ResponseMapper<IN, OUT> responseMapper) {
        return new Builder<>(settings, requestMapper, responseMapper);
    }

    TypeInformation<OUT> outputType() {
        return outputType;
    }

    /**
     * Builds this subtask's client and registers the metrics.
     *
     * @param context Flink's open context
     */
    @Override
    public void open(OpenContext context) throws Exception {
        lease = ClientLease.open(settings);
        client = lease.client();
        metrics = new StrandMetrics(getRuntimeContext().getMetricGroup());
    }

    /** Closes this subtask's client (or lets go of the shared one); requests still in flight on it fail. */
    @Override
    public void close() throws Exception {
        if (lease != null) {
            lease.close();
            lease = null;
            client = null;
        }
    }

    /**
     * Sends the record's request; the result future completes from the client's I/O thread.
     *
     * @param record the record
     * @param resultFuture completed with the output (or nothing), or exceptionally with an
     *        {@link HttpRecordException}
     */
    @Override
    public void asyncInvoke(IN record, ResultFuture<OUT> resultFuture) {
        Request request;
        try {
            request = Objects.requireNonNull(requestMapper.toRequest(record), "the request mapper returned null");
        } catch (Exception | LinkageError e) {
            metrics.error(ErrorKind.MAPPER);
            resultFuture.completeExceptionally(new HttpRecordException(record, null, ErrorKind.MAPPER, 0,
                    null, "the request mapper threw " + e, e));
            return;
        }
        long start = metrics.started();
        CompletableFuture<Response> call;
        try {
            call = client.async().send(request);
        } catch (RuntimeException e) {
            call = CompletableFuture.failedFuture(e);
        }
        call.whenComplete((response, error) -> {
            metrics.finished(start);
            if (error != null) {
                failed(record, request, Exchanges.unwrap(error), resultFuture);
            } else {
                answered(record, request, response, resultFuture);
            }
        });
    }

    private void failed(IN record, Request request, Throwable cause, ResultFuture<OUT> resultFuture) {
        ErrorKind kind = ErrorKind.of(cause);
        metrics.error(kind);
        if (cause instanceof HttpException h && h.request() != null) {
            request = h.request();
        }
        resultFuture.completeExceptionally(new HttpRecordException(record, request, kind, 0, null, cause.toString(),
                cause));
    }

    private void answered(IN record, Request sent, Response response, ResultFuture<OUT> resultFuture) {
        Request request = response.request() != null ? response.request() : sent;
        if (response.status() >= 400 && !passErrorStatuses) {
            metrics.error(ErrorKind.STATUS);
            Duration retryAfter = Exchanges.retryAfter(response, ZonedDateTime.now());
            HttpRecordException e = new HttpRecordException(record, request, ErrorKind.STATUS, response.status(),
                    retryAfter, Exchanges.statusLine(response), null);
            boolean wait = retryAfter != null && !retryAfter.isZero() && !maxRetryAfter.isZero()
                    && (response.status() == 429 || response.status() == 503);
            if (wait) {
                long ms = Math.min(retryAfter.toMillis(), maxRetryAfter.toMillis());
                metrics.retryScheduled(1);
                CompletableFuture.delayedExecutor(ms, TimeUnit.MILLISECONDS)
                        .execute(() -> resultFuture.completeExceptionally(e));
            } else {
                resultFuture.completeExceptionally(e);
            }
            return;
        }
        OUT out;
        try {
            out = responseMapper.map(record, response);
        } catch (Exception | LinkageError e) {
            metrics.error(ErrorKind.MAPPER);
            resultFuture.completeExceptionally(new HttpRecordException(record, request, ErrorKind.MAPPER,
                    response.status(), null, "the response mapper threw " + e, e));
            return;
        }
        resultFuture.complete(out == null ? List.of() : List.of(out));
    }

    /**
     * Applies the {@link TimeoutPolicy}: Flink calls this when the operator's timeout fires for the record.
     *
     * @param record the record
     * @param resultFuture its result
     */
    @Override
    public void timeout(IN record, ResultFuture<OUT> resultFuture) {
        switch (timeoutPolicy.kind()) {
            case FAIL -> {
                metrics.error(ErrorKind.TIMEOUT);
                resultFuture.completeExceptionally(new HttpRecordException(record, null, ErrorKind.TIMEOUT, 0,
                        null, "no result within the async operator's timeout", null));
            }
            case FALLBACK -> {
                metrics.timeoutFallback();
                OUT out;
                try {
                    out = Objects.requireNonNull(timeoutPolicy.fallbackFunction().apply(record),
                            "the timeout fallback returned null");
                } catch (RuntimeException e) {
                    resultFuture.completeExceptionally(new HttpRecordException(record, null, ErrorKind.MAPPER, 0,
                            null, "timed out, and the timeout fallback threw " + e, e));
                    return;
                }
                resultFuture.complete(List.of(out));
            }
            case DROP -> {
                metrics.timeoutDropped();
                resultFuture.complete(List.of());
            }
        }
    }

    /**
     * Collects the function's options.
     *
     * @param <IN> the record type
     * @param <OUT> the output type
     */
    public static final class Builder<IN, OUT> {
        private final HttpSettings settings;
        private final RequestMapper<IN> requestMapper;
        private final ResponseMapper<IN, OUT> responseMapper;
        private TimeoutPolicy<IN, OUT> timeoutPolicy = TimeoutPolicy.fail();
        private boolean passErrorStatuses;
        private Duration maxRetryAfter = Duration.ofSeconds(10);
        private TypeInformation<OUT> outputType;

        private Builder(HttpSettings settings, RequestMapper<IN> requestMapper,
                ResponseMapper<IN, OUT> responseMapper) {
            this.settings = Objects.requireNonNull(settings, "settings");
            this.requestMapper = Objects.requireNonNull(requestMapper, "requestMapper");
            this.responseMapper = Objects.requireNonNull(responseMapper, "responseMapper");
        }

        /**
         * @param policy what a record does when the operator's timeout fires; default {@link TimeoutPolicy#fail()}
         * @return this builder
         */
        public Builder<IN, OUT> timeoutPolicy(TimeoutPolicy<IN, OUT> policy) {
            this.timeoutPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * @param pass true to hand responses of any status to the response mapper; default false, where a status
         *        of 400 or above fails the record (and so can be retried)
         * @return this builder
         */
        public Builder<IN, OUT> passErrorStatuses(boolean pass) {
            this.passErrorStatuses = pass;
            return this;
        }

        /**
         * The longest {@code Retry-After} (on 429 and 503) waited before the failure is reported to Flink's retry.
         *
         * @param max default 10 s; {@link Duration#ZERO} reports at once and leaves the delay to Flink's back-off
         * @return this builder
         */
        public Builder<IN, OUT> maxRetryAfter(Duration max) {
            if (max.isNegative()) {
                throw new IllegalArgumentException("maxRetryAfter must not be negative: " + max);
            }
            this.maxRetryAfter = max;
            return this;
        }

        /**
         * @param type the output type, e.g. {@code Types.STRING}; without it, give it with {@code .returns(...)}
         * @return this builder
         */
        public Builder<IN, OUT> outputType(TypeInformation<OUT> type) {
            this.outputType = Objects.requireNonNull(type, "type");
            return this;
        }

        /**
         * @param type the output class (not generic)
         * @return this builder
         */
        public Builder<IN, OUT> outputType(Class<OUT> type) {
            return outputType(TypeInformation.of(type));
        }

        /** @return the function */
        public StrandAsyncFunction<IN, OUT> build() {
            return outputType == null ? new StrandAsyncFunction<>(this) : new Typed<>(this);
        }
    }

    /**
     * The function when its output type was given: Flink reads the type from it, so no {@code .returns(...)} is
     * needed after {@code AsyncDataStream.orderedWait}. (Without a type it must not implement
     * {@link ResultTypeQueryable}, or Flink would ignore {@code .returns(...)}'s fallback.)
     *
     * @param <IN> the record type
     * @param <OUT> the output type
     */
    static final class Typed<IN, OUT> extends StrandAsyncFunction<IN, OUT> implements ResultTypeQueryable<OUT> {
        private static final long serialVersionUID = 1L;

        Typed(Builder<IN, OUT> b) {
            super(b);
        }

        @Override
        public TypeInformation<OUT> getProducedType() {
            return outputType();
        }
    }
}
