package dev.strand.flink;

import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.format.EncodingFormat;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;

/**
 * The {@code INSERT INTO} side of {@code 'connector' = 'strand-http'}: each row, encoded by the table's format, is
 * one request ({@code POST} by default) to the URL, through {@link StrandHttpSink} (at-least-once on checkpoints,
 * back-off and re-queue on 408, 429, 5xx and connection failures, a job failure after {@code sink.max-attempts}).
 * Insert-only.
 */
final class StrandHttpTableSink implements DynamicTableSink {
    private final HttpSettings settings;
    private final String path;
    private final String method;
    private final String contentType;
    private final int maxAttempts;
    private final EncodingFormat<SerializationSchema<RowData>> format;
    private final DataType physical;

    StrandHttpTableSink(HttpSettings settings, String path, String method, String contentType, int maxAttempts,
            EncodingFormat<SerializationSchema<RowData>> format, DataType physical) {
        this.settings = settings;
        this.path = path;
        this.method = method;
        this.contentType = contentType;
        this.maxAttempts = maxAttempts;
        this.format = format;
        this.physical = physical;
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        return ChangelogMode.insertOnly();
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        SerializationSchema<RowData> schema = format.createRuntimeEncoder(context, physical);
        return SinkV2Provider.of(StrandHttpSink.builder(settings,
                        new RowEncoder(schema, method, path, contentType))
                .maxAttempts(maxAttempts)
                .build());
    }

    @Override
    public DynamicTableSink copy() {
        return new StrandHttpTableSink(settings, path, method, contentType, maxAttempts, format, physical);
    }

    @Override
    public String asSummaryString() {
        return "strand-http(" + method + " " + settings.baseUrl() + path + ")";
    }

    /** Encodes a row with the format; the schema is opened on first use, in the writer's subtask. */
    static final class RowEncoder implements SinkEncoder<RowData> {
        private static final long serialVersionUID = 1L;
        private final SerializationSchema<RowData> schema;
        private final String method;
        private final String path;
        private final String contentType;
        private transient boolean opened;

        RowEncoder(SerializationSchema<RowData> schema, String method, String path, String contentType) {
            this.schema = schema;
            this.method = method;
            this.path = path;
            this.contentType = contentType;
        }

        @Override
        public HttpSinkEntry encode(RowData row) {
            if (!opened) {
                try {
                    schema.open(new SerializationSchema.InitializationContext() {
                        @Override
                        public org.apache.flink.metrics.MetricGroup getMetricGroup() {
                            return UnregisteredMetricsGroup.createOperatorMetricGroup();
                        }

                        @Override
                        public UserCodeClassLoader getUserCodeClassLoader() {
                            return SimpleUserCodeClassLoader.create(RowEncoder.class.getClassLoader());
                        }
                    });
                } catch (Exception e) {
                    throw new IllegalStateException("could not open the format's serializer: " + e, e);
                }
                opened = true;
            }
            return HttpSinkEntry.of(method, path, contentType, schema.serialize(row));
        }
    }
}
