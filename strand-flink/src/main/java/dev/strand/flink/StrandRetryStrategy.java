package dev.strand.flink;

import java.util.Collection;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.flink.streaming.api.functions.async.AsyncRetryPredicate;
import org.apache.flink.streaming.api.functions.async.AsyncRetryStrategy;

/**
 * Flink's {@link AsyncRetryStrategy} for {@link StrandAsyncFunction}, for {@code AsyncDataStream.orderedWaitWithRetry}
 * and {@code unorderedWaitWithRetry}: retries a record that failed with an {@link HttpRecordException} of kind
 * {@link ErrorKind#CONNECT} or with status 429 or 503 (more with {@link Builder#retryStatuses}), for idempotent
 * requests only ({@link dev.strand.Request#isIdempotent()}: an idempotent method, or an {@code Idempotency-Key}
 * header) unless {@link Builder#retryNonIdempotent(boolean)}. Back-off is exponential from
 * {@link Builder#initialBackoffMillis(long)}, capped by {@link Builder#maxBackoffMillis(long)}.
 *
 * <p>{@code Retry-After}: Flink asks a strategy for its back-off knowing only the attempt number, so the server's
 * delay is honoured by the function, which reports such a failure only once the delay has passed (see
 * {@link StrandAsyncFunction}); this strategy's back-off comes on top.
 *
 * {@snippet :
 * AsyncRetryStrategy<String> retry = StrandRetryStrategy.<String>builder()
 *     .maxRetries(3)
 *     .initialBackoffMillis(100)
 *     .build();
 * }
 *
 * @param <OUT> the output type of the async function
 */
public final class StrandRetryStrategy<OUT> implements AsyncRetryStrategy<OUT>, AsyncRetryPredicate<OUT> {
    private static final long serialVersionUID = 1L;

    private final int maxRetries;
    private final long initialBackoffMillis;
    private final long maxBackoffMillis;
    private final boolean retryNonIdempotent;
    private final HashSet<Integer> statuses;

    private StrandRetryStrategy(Builder<OUT> b) {
        this.maxRetries = b.maxRetries;
        this.initialBackoffMillis = b.initialBackoffMillis;
        this.maxBackoffMillis = b.maxBackoffMillis;
        this.retryNonIdempotent = b.retryNonIdempotent;
        this.statuses = new HashSet<>(b.statuses);
    }

    /**
     * @param <OUT> the output type of the async function
     * @return a builder: 3 retries, 100 ms doubling up to 5 s, statuses 429 and 503, idempotent methods only
     */
    public static <OUT> Builder<OUT> builder() {
        return new Builder<>();
    }

    /**
     * @param currentAttempts the retries made so far plus one, as Flink counts
     * @return whether another retry is allowed
     */
    @Override
    public boolean canRetry(int currentAttempts) {
        return currentAttempts <= maxRetries;
    }

    /**
     * @param currentAttempts as Flink counts: 1 before the first retry
     * @return {@code initial * 2^(currentAttempts - 1)}, at most the maximum
     */
    @Override
    public long getBackoffTimeMillis(int currentAttempts) {
        int shift = Math.max(0, Math.min(30, currentAttempts - 1));
        long d = initialBackoffMillis << shift;
        return d < 0 ? maxBackoffMillis : Math.min(d, maxBackoffMillis);
    }

    /** @return this: the strategy is its own predicate */
    @Override
    public AsyncRetryPredicate<OUT> getRetryPredicate() {
        return this;
    }

    /** @return empty: results are never retried, only failures */
    @Override
    public Optional<Predicate<Collection<OUT>>> resultPredicate() {
        return Optional.empty();
    }

    /** @return the test of {@link #shouldRetry(Throwable)} */
    @Override
    public Optional<Predicate<Throwable>> exceptionPredicate() {
        return Optional.of(this::shouldRetry);
    }

    /**
     * The retry decision.
     *
     * @param failure how a record failed
     * @return true for an {@link HttpRecordException} of kind CONNECT, or STATUS with a retried status, whose
     *         request is idempotent by {@link dev.strand.Request#isIdempotent()} (or any request, when so
     *         configured)
     */
    public boolean shouldRetry(Throwable failure) {
        if (!(failure instanceof HttpRecordException e)) {
            return false;
        }
        boolean retriable = e.kind() == ErrorKind.CONNECT
                || e.kind() == ErrorKind.STATUS && statuses.contains(e.status());
        return retriable && (retryNonIdempotent || e.isIdempotent());
    }

    @Override
    public String toString() {
        return "StrandRetryStrategy[maxRetries=" + maxRetries + ", backoff=" + initialBackoffMillis + ".."
                + maxBackoffMillis + " ms, statuses=" + statuses + ", nonIdempotent=" + retryNonIdempotent + "]";
    }

    /**
     * Collects the strategy's options.
     *
     * @param <OUT> the output type of the async function
     */
    public static final class Builder<OUT> {
        private int maxRetries = 3;
        private long initialBackoffMillis = 100;
        private long maxBackoffMillis = 5_000;
        private boolean retryNonIdempotent;
        private final Set<Integer> statuses = new HashSet<>(Set.of(429, 503));

        private Builder() {
        }

        /**
         * @param n retries after the first attempt, at least 0; default 3
         * @return this builder
         */
        public Builder<OUT> maxRetries(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("maxRetries must be >= 0: " + n);
            }
            this.maxRetries = n;
            return this;
        }

        /**
         * @param ms the back-off before the first retry, at least 0; default 100
         * @return this builder
         */
        public Builder<OUT> initialBackoffMillis(long ms) {
            if (ms < 0) {
                throw new IllegalArgumentException("initialBackoffMillis must be >= 0: " + ms);
            }
            this.initialBackoffMillis = ms;
            return this;
        }

        /**
         * @param ms the longest back-off, at least 0; default 5000
         * @return this builder
         */
        public Builder<OUT> maxBackoffMillis(long ms) {
            if (ms < 0) {
                throw new IllegalArgumentException("maxBackoffMillis must be >= 0: " + ms);
            }
            this.maxBackoffMillis = ms;
            return this;
        }

        /**
         * @param retry true to retry POST and PATCH too (the server may then see a request twice); default false
         * @return this builder
         */
        public Builder<OUT> retryNonIdempotent(boolean retry) {
            this.retryNonIdempotent = retry;
            return this;
        }

        /**
         * Statuses retried besides 429 and 503.
         *
         * @param more e.g. 502, 504
         * @return this builder
         */
        public Builder<OUT> retryStatuses(int... more) {
            for (int s : more) {
                if (s < 100 || s > 599) {
                    throw new IllegalArgumentException("not a status: " + s);
                }
                statuses.add(s);
            }
            return this;
        }

        /** @return the strategy */
        public StrandRetryStrategy<OUT> build() {
            return new StrandRetryStrategy<>(this);
        }
    }
}
