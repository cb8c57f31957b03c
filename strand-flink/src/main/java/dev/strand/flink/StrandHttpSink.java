package dev.strand.flink;

import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.connector.base.sink.AsyncSinkBase;
import org.apache.flink.connector.base.sink.writer.BufferedRequestState;
import org.apache.flink.connector.base.sink.writer.ElementConverter;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * An HTTP sink on Flink's {@link AsyncSinkBase}: each record becomes a request ({@link SinkEncoder}), or, with
 * {@link Builder#batch}, each batch of records becomes one request whose body a {@link BatchEncoder} joins (e.g.
 * {@link BatchEncoder#ndjson()}). Each parallel writer has one Strand client, built from {@link HttpSettings}.
 *
 * <p>Delivery is at-least-once with checkpoints: entries not yet acknowledged are part of the writer's state, and
 * a checkpoint waits for requests in flight. A request that fails with a connect failure, a timeout, another
 * transport error, or status 408, 429 or 5xx is re-queued through Flink's {@code ResultHandler#retryForEntries}
 * after a back-off (exponential, or the server's {@code Retry-After} when longer); Flink's congestion-control
 * rate limiting meanwhile lowers the requests in flight. After {@link Builder#maxAttempts(int)} attempts, or at
 * once on another 4xx, the job fails with an {@link HttpRecordException} naming the entry: nothing is dropped
 * silently. Metrics as for {@link StrandAsyncFunction}, under {@code strand} on the writer's group.
 *
 * <p><b>Effectively once</b>, with a server that honours idempotency keys: with {@link Builder#idempotencyKeys()}
 * every entry carries a key, sent as {@code Idempotency-Key} on each of its requests. The key is chosen when the
 * record is converted and then kept (in the checkpointed state too), so a retry, and an entry restored from a
 * checkpoint, are sent under the key they had; a record re-read from the source after a restore gets the same key
 * again because the key is a function of the record: of the entry's method, URL, content type and body by default,
 * or what {@link Builder#idempotencyKeys(KeySelector)} extracts. A server that keeps the keys it has seen (as the
 * IETF httpapi draft describes) then applies each write once however often Flink replays it; a server that ignores
 * the header gets at-least-once, as without keys. Per-entry requests only: a batch's make-up changes across
 * restores, so {@link Builder#batch} and keys are refused together.
 *
 * {@snippet :
 * StrandHttpSink<String> sink = StrandHttpSink.builder(
 *         HttpSettings.of("http://collector.internal:8080"),
 *         (String line) -> HttpSinkEntry.postJson("/ingest", line))
 *     .batch("POST", "/ingest/bulk", "application/x-ndjson", BatchEncoder.ndjson())
 *     .maxBatchSize(100)
 *     .build();
 * events.sinkTo(sink);
 * }
 *
 * @param <IN> the record type
 */
public final class StrandHttpSink<IN> extends AsyncSinkBase<IN, HttpSinkEntry> {
    private static final long serialVersionUID = 1L;

    private final Options options;

    private StrandHttpSink(Builder<IN> b) {
        super(new Converter<>(b.encoder, b.keys), b.maxBatchSize, b.inFlight(), b.maxBufferedRequests,
                b.maxBatchSizeInBytes, b.maxTimeInBufferMillis, b.maxRecordSizeInBytes, b.requestTimeoutMillis,
                false);
        this.options = new Options(b.settings, b.batchMethod, b.batchUrl, b.batchContentType, b.batchEncoder,
                b.maxAttempts, b.initialBackoff, b.maxBackoff, b.keys);
    }

    /**
     * @param settings the client each writer builds
     * @param encoder record to entry
     * @param <IN> the record type
     * @return a builder; see its setters for the defaults
     */
    public static <IN> Builder<IN> builder(HttpSettings settings, SinkEncoder<IN> encoder) {
        return new Builder<>(settings, encoder);
    }

    /** Creates a writer with nothing buffered. */
    @Override
    public SinkWriter<IN> createWriter(WriterInitContext context) throws IOException {
        return restoreWriter(context, List.of());
    }

    /** Creates a writer that first sends what a checkpoint had buffered. */
    @Override
    public StatefulSinkWriter<IN, BufferedRequestState<HttpSinkEntry>> restoreWriter(WriterInitContext context,
            Collection<BufferedRequestState<HttpSinkEntry>> recoveredState) throws IOException {
        return new StrandHttpSinkWriter<>(getElementConverter(), context, writerConfiguration(), options,
                recoveredState);
    }

    /** The serializer of buffered entries in checkpoints. */
    @Override
    public SimpleVersionedSerializer<BufferedRequestState<HttpSinkEntry>> getWriterStateSerializer() {
        return new HttpSinkEntrySerializer();
    }

    private org.apache.flink.connector.base.sink.writer.config.AsyncSinkWriterConfiguration writerConfiguration() {
        return org.apache.flink.connector.base.sink.writer.config.AsyncSinkWriterConfiguration.builder()
                .setMaxBatchSize(getMaxBatchSize())
                .setMaxBatchSizeInBytes(getMaxBatchSizeInBytes())
                .setMaxInFlightRequests(getMaxInFlightRequests())
                .setMaxBufferedRequests(getMaxBufferedRequests())
                .setMaxTimeInBufferMS(getMaxTimeInBufferMS())
                .setMaxRecordSizeInBytes(getMaxRecordSizeInBytes())
                .setRequestTimeoutMS(getRequestTimeoutMS())
                .setFailOnTimeout(getFailOnTimeout())
                .build();
    }

    /** What the writer needs besides Flink's buffering options. */
    record Options(HttpSettings settings, String batchMethod, String batchUrl, String batchContentType,
            BatchEncoder batchEncoder, int maxAttempts, Duration initialBackoff, Duration maxBackoff,
            IdempotencyKeys<?> keys) implements java.io.Serializable {

        boolean batching() {
            return batchEncoder != null;
        }

        /** Back-off before attempt {@code attempts + 1}: initial doubled per attempt made, capped. */
        Duration backoff(int attempts) {
            int shift = Math.max(0, Math.min(30, attempts - 1));
            long ms = initialBackoff.toMillis() << shift;
            return ms < 0 || ms > maxBackoff.toMillis() ? maxBackoff : Duration.ofMillis(ms);
        }
    }

    private record Converter<IN>(SinkEncoder<IN> encoder, IdempotencyKeys<IN> keys)
            implements ElementConverter<IN, HttpSinkEntry> {
        @Override
        public HttpSinkEntry apply(IN element, SinkWriter.Context context) {
            HttpSinkEntry entry = Objects.requireNonNull(encoder.encode(element), "the sink encoder returned null");
            return keys == null ? entry : keys.assign(element, entry);
        }
    }

    /**
     * Collects the sink's options.
     *
     * @param <IN> the record type
     */
    public static final class Builder<IN> {
        private final HttpSettings settings;
        private final SinkEncoder<IN> encoder;
        private String batchMethod;
        private String batchUrl;
        private String batchContentType;
        private BatchEncoder batchEncoder;
        private int maxBatchSize = 100;
        private int maxInFlightRequests;
        private int maxBufferedRequests = 10_000;
        private long maxBatchSizeInBytes = 4L * 1024 * 1024;
        private long maxTimeInBufferMillis = 200;
        private long maxRecordSizeInBytes = 1024L * 1024;
        private long requestTimeoutMillis = 10 * 60 * 1000L;
        private int maxAttempts = 10;
        private Duration initialBackoff = Duration.ofMillis(100);
        private Duration maxBackoff = Duration.ofSeconds(5);
        private boolean keyed;
        private KeySelector<IN, String> keyExtractor;
        private String keyHeader = IdempotencyKeys.DEFAULT_HEADER;
        private boolean keyQuoted = true;
        private IdempotencyKeys<IN> keys;

        private Builder(HttpSettings settings, SinkEncoder<IN> encoder) {
            this.settings = Objects.requireNonNull(settings, "settings");
            this.encoder = Objects.requireNonNull(encoder, "encoder");
        }

        /**
         * Send each batch of entries as one request, its body joined by {@code encoder}; the entries' own
         * methods and URLs are then ignored.
         *
         * @param method e.g. {@code "POST"}
         * @param url absolute, or relative to the base URL
         * @param contentType e.g. {@code "application/x-ndjson"}
         * @param encoder joins the bodies
         * @return this builder
         */
        public Builder<IN> batch(String method, String url, String contentType, BatchEncoder encoder) {
            this.batchMethod = Objects.requireNonNull(method, "method");
            this.batchUrl = Objects.requireNonNull(url, "url");
            this.batchContentType = contentType;
            this.batchEncoder = Objects.requireNonNull(encoder, "encoder");
            return this;
        }

        /**
         * @param n entries per batch handed to the writer (per request in batch mode); default 100
         * @return this builder
         */
        public Builder<IN> maxBatchSize(int n) {
            this.maxBatchSize = n;
            return this;
        }

        /**
         * @param n batches in flight per writer (lowered by Flink's rate limiting on failures); default 50 in batch
         *        mode, else the pool size divided by {@link #maxBatchSize}, so that every request has a connection
         * @return this builder
         */
        public Builder<IN> maxInFlightRequests(int n) {
            this.maxInFlightRequests = n;
            return this;
        }

        /**
         * @param n entries buffered before the writer applies backpressure; default 10 000
         * @return this builder
         */
        public Builder<IN> maxBufferedRequests(int n) {
            this.maxBufferedRequests = n;
            return this;
        }

        /**
         * @param bytes the most bytes in one batch; default 4 MiB
         * @return this builder
         */
        public Builder<IN> maxBatchSizeInBytes(long bytes) {
            this.maxBatchSizeInBytes = bytes;
            return this;
        }

        /**
         * @param ms the longest an entry waits for its batch to fill; default 200
         * @return this builder
         */
        public Builder<IN> maxTimeInBufferMillis(long ms) {
            this.maxTimeInBufferMillis = ms;
            return this;
        }

        /**
         * @param bytes the largest single entry; default 1 MiB
         * @return this builder
         */
        public Builder<IN> maxRecordSizeInBytes(long bytes) {
            this.maxRecordSizeInBytes = bytes;
            return this;
        }

        /**
         * Flink's own bound on one batch's round trip, back-off included; past it Flink re-queues the batch.
         *
         * @param ms default 10 minutes
         * @return this builder
         */
        public Builder<IN> requestTimeoutMillis(long ms) {
            this.requestTimeoutMillis = ms;
            return this;
        }

        /**
         * @param n requests made for an entry before the job fails, at least 1; default 10
         * @return this builder
         */
        public Builder<IN> maxAttempts(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("maxAttempts must be >= 1: " + n);
            }
            this.maxAttempts = n;
            return this;
        }

        /**
         * Back-off between attempts: {@code initial}, doubled per attempt, at most {@code max}; a longer
         * {@code Retry-After} wins (up to {@code max}).
         *
         * @param initial default 100 ms
         * @param max default 5 s
         * @return this builder
         */
        public Builder<IN> backoff(Duration initial, Duration max) {
            if (initial.isNegative() || max.compareTo(initial) < 0) {
                throw new IllegalArgumentException("need 0 <= initial <= max: " + initial + ", " + max);
            }
            this.initialBackoff = initial;
            this.maxBackoff = max;
            return this;
        }

        /**
         * Sends each entry with an idempotency key derived from its content: 128 bits of SHA-256 over its method,
         * URL, content type and body, as 32 hex digits. Deterministic, so a record re-read from the source after a
         * restore is sent under the key it had; but two records with the same entry share a key, and a server
         * that honours keys applies only the first. When records can repeat, give a key that tells them apart
         * with {@link #idempotencyKeys(KeySelector)}.
         *
         * @return this builder
         */
        public Builder<IN> idempotencyKeys() {
            this.keyed = true;
            this.keyExtractor = null;
            return this;
        }

        /**
         * Sends each entry with the idempotency key {@code extractor} gives its record (an event id, a source
         * offset): it must give the same key for the same record on every run, and distinct keys for writes that
         * must all take effect.
         *
         * {@snippet :
         * StrandHttpSink.builder(settings, (Order o) -> HttpSinkEntry.postJson("/payments", o.toJson()))
         *     .idempotencyKeys(o -> "order-" + o.id())
         *     .build();
         * }
         *
         * @param extractor record to key: 1 to 255 visible ASCII characters; another value fails the job
         * @return this builder
         */
        public Builder<IN> idempotencyKeys(KeySelector<IN, String> extractor) {
            this.keyed = true;
            this.keyExtractor = Objects.requireNonNull(extractor, "extractor");
            return this;
        }

        /**
         * The header that carries the key; default {@code Idempotency-Key} as an sf-string ({@code "key"}), the
         * form the IETF draft defines.
         *
         * @param name e.g. {@code "X-Request-Id"}
         * @param quoted true to send the key as an RFC 8941 sf-string, false to send it bare (as APIs that predate
         *        the draft expect, e.g. {@code Idempotency-Key: 4f1c...} or {@code PayPal-Request-Id})
         * @return this builder
         */
        public Builder<IN> idempotencyKeyHeader(String name, boolean quoted) {
            Objects.requireNonNull(name, "name");
            boolean token = !name.isEmpty()
                    && name.chars().allMatch(c -> c > 0x20 && c < 0x7f && "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0);
            if (!token) {
                throw new IllegalArgumentException("not a header name: '" + name + "'");
            }
            this.keyHeader = name;
            this.keyQuoted = quoted;
            return this;
        }

        int inFlight() {
            if (maxInFlightRequests > 0) {
                return maxInFlightRequests;
            }
            return batchEncoder != null ? 50 : Math.max(1, settings.poolSize() / maxBatchSize);
        }

        /** @return the sink */
        public StrandHttpSink<IN> build() {
            if (keyed && batchEncoder != null) {
                throw new IllegalStateException("idempotency keys are per entry, and a batch request carries many:"
                        + " use one request per entry (no batch(...)) to send keys");
            }
            keys = keyed ? new IdempotencyKeys<>(keyHeader, keyQuoted, keyExtractor) : null;
            return new StrandHttpSink<>(this);
        }
    }
}
