package dev.strand.flink.table;

import dev.strand.flink.HttpSinkEntry;
import dev.strand.flink.SinkEncoder;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.data.RowData;

/**
 * A row as {@link dev.strand.flink.StrandHttpSink} sends it: the body from the table's format, the URL from the
 * template filled with the row's columns.
 */
final class RowEncoder implements SinkEncoder<RowData> {
    private static final long serialVersionUID = 1L;

    private final SerializationSchema<RowData> format;
    private final UrlTemplate url;
    private final UrlValues values;
    private final String method;
    private final String contentType;
    private transient boolean opened;

    RowEncoder(SerializationSchema<RowData> format, UrlTemplate url, UrlValues values, String method,
            String contentType) {
        this.format = format;
        this.url = url;
        this.values = values;
        this.method = method;
        this.contentType = contentType;
    }

    @Override
    public HttpSinkEntry encode(RowData row) {
        if (!opened) {
            // The sink opens no encoder of its own, so the format is opened here, on the writer's thread.
            try {
                format.open(new FormatContext(new UnregisteredMetricsGroup(),
                        Thread.currentThread().getContextClassLoader()));
            } catch (Exception e) {
                throw new IllegalStateException("could not open the table's format: " + e, e);
            }
            opened = true;
        }
        String[] v = values.read(row);
        for (int i = 0; i < v.length; i++) {
            if (v[i] == null) {
                throw new IllegalArgumentException("the row's " + values.describe(v) + ": the URL '" + url
                        + "' needs a value for every placeholder");
            }
        }
        return HttpSinkEntry.of(method, url.expand(name -> values.valueOf(v, name)), contentType,
                format.serialize(row));
    }
}
