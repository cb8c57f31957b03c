package dev.strand.flink.table;

import dev.strand.flink.HttpSettings;
import dev.strand.flink.StrandHttpSink;
import java.util.List;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.base.table.AsyncSinkConnectorOptions;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.format.EncodingFormat;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * A {@code strand-http} table written by {@code INSERT INTO}: each row is encoded with the table's format and sent
 * as one request by {@link StrandHttpSink} (at-least-once with checkpoints, effectively once with
 * {@code 'sink.idempotency-keys' = 'true'} at a server that honours the keys; retries of connect failures, timeouts,
 * 408, 429 and 5xx up to {@code sink.max-attempts}; the job fails naming the row after that). Insert-only: a
 * query that updates or deletes rows cannot write here.
 */
final class StrandHttpTableSink implements DynamicTableSink {

    private final DataType row;
    private final EncodingFormat<SerializationSchema<RowData>> encoding;
    private final UrlTemplate url;
    private final String method;
    private final String contentType;
    private final HttpSettings settings;
    private final int maxAttempts;
    private final Integer maxBatchSize;
    private final Integer maxInFlight;
    private final Integer maxBuffered;
    private final Long flushTimeoutMs;
    private final Integer parallelism;
    private final String keyHeader; // null: no idempotency keys
    private final boolean keyQuoted;

    StrandHttpTableSink(DataType row, EncodingFormat<SerializationSchema<RowData>> encoding, UrlTemplate url,
            String method, String contentType, HttpSettings settings, int maxAttempts, ReadableConfig options,
            String keyHeader, boolean keyQuoted) {
        this(row, encoding, url, method, contentType, settings, maxAttempts,
                options.getOptional(AsyncSinkConnectorOptions.MAX_BATCH_SIZE).orElse(null),
                options.getOptional(AsyncSinkConnectorOptions.MAX_IN_FLIGHT_REQUESTS).orElse(null),
                options.getOptional(AsyncSinkConnectorOptions.MAX_BUFFERED_REQUESTS).orElse(null),
                options.getOptional(AsyncSinkConnectorOptions.FLUSH_BUFFER_TIMEOUT).orElse(null),
                options.getOptional(FactoryUtil.SINK_PARALLELISM).orElse(null), keyHeader, keyQuoted);
    }

    private StrandHttpTableSink(DataType row, EncodingFormat<SerializationSchema<RowData>> encoding,
            UrlTemplate url, String method, String contentType, HttpSettings settings, int maxAttempts,
            Integer maxBatchSize, Integer maxInFlight, Integer maxBuffered, Long flushTimeoutMs,
            Integer parallelism, String keyHeader, boolean keyQuoted) {
        this.row = row;
        this.encoding = encoding;
        this.url = url;
        this.method = method;
        this.contentType = contentType;
        this.settings = settings;
        this.maxAttempts = maxAttempts;
        this.maxBatchSize = maxBatchSize;
        this.maxInFlight = maxInFlight;
        this.maxBuffered = maxBuffered;
        this.flushTimeoutMs = flushTimeoutMs;
        this.parallelism = parallelism;
        this.keyHeader = keyHeader;
        this.keyQuoted = keyQuoted;
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        return ChangelogMode.insertOnly();
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        List<String> columns = DataType.getFieldNames(row);
        List<DataType> types = DataType.getFieldDataTypes(row);
        String[] names = url.columns().toArray(String[]::new);
        LogicalType[] nameTypes = new LogicalType[names.length];
        int[] positions = new int[names.length];
        for (int i = 0; i < names.length; i++) {
            positions[i] = columns.indexOf(names[i]);
            nameTypes[i] = types.get(positions[i]).getLogicalType();
        }
        RowEncoder encoder = new RowEncoder(encoding.createRuntimeEncoder(context, row), url,
                new UrlValues(names, nameTypes, positions), method, contentType);
        StrandHttpSink.Builder<RowData> sink = StrandHttpSink.builder(settings, encoder).maxAttempts(maxAttempts);
        if (maxBatchSize != null) {
            sink.maxBatchSize(maxBatchSize);
        }
        if (maxInFlight != null) {
            sink.maxInFlightRequests(maxInFlight);
        }
        if (maxBuffered != null) {
            sink.maxBufferedRequests(maxBuffered);
        }
        if (flushTimeoutMs != null) {
            sink.maxTimeInBufferMillis(flushTimeoutMs);
        }
        if (keyHeader != null) {
            sink.idempotencyKeys().idempotencyKeyHeader(keyHeader, keyQuoted);
        }
        return SinkV2Provider.of(sink.build(), parallelism);
    }

    @Override
    public DynamicTableSink copy() {
        return new StrandHttpTableSink(row, encoding, url, method, contentType, settings, maxAttempts, maxBatchSize,
                maxInFlight, maxBuffered, flushTimeoutMs, parallelism, keyHeader, keyQuoted);
    }

    @Override
    public String asSummaryString() {
        return "strand-http sink " + method + " " + url;
    }

}
