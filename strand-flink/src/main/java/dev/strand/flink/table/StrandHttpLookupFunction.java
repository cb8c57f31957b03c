package dev.strand.flink.table;

import dev.strand.Client;
import dev.strand.ConnectException;
import dev.strand.ConnectTimeoutException;
import dev.strand.HttpException;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.Response;
import dev.strand.TimeoutException;
import dev.strand.TransportException;
import dev.strand.flink.ErrorKind;
import dev.strand.flink.HttpRecordException;
import dev.strand.flink.HttpSettings;
import dev.strand.flink.internal.ClientLease;
import dev.strand.flink.internal.StrandMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.functions.AsyncLookupFunction;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.util.Collector;

/**
 * Looks a key up with one request on Strand's async client: the URL template filled from the key, the response
 * body decoded by the table's format into zero or more rows.
 *
 * <ul>
 *   <li>404, 204 or an empty body: no row (an inner lookup join drops the input row, a left join pads it).
 *   <li>A key column the response leaves out (or null) takes the key's value; a row whose key column differs from
 *       the key is not the key's, and is dropped. So keys the URL does not hold are still honoured.
 *   <li>A connect failure, a timeout, another transport error, 429 or 5xx is retried up to
 *       {@code lookup.max-retries} times (back-off 100 ms doubling to 2 s, or a longer {@code Retry-After} up to
 *       10 s); then, or on another status of 400 or more, or on a body the format cannot decode, the lookup fails
 *       with an {@link HttpRecordException} naming the key and the request. A null key matches nothing.
 * </ul>
 *
 * <p>One {@link Client} per parallel subtask, built in {@link #open} and closed in {@link #close}. Metrics as
 * for {@link dev.strand.flink.StrandAsyncFunction}, under {@code strand} on the lookup's group ({@code requests}
 * counts every attempt, {@code retriesScheduled} the retries). Public only
 * because Flink's code generation requires it; tables make it, users do not.
 */
public final class StrandHttpLookupFunction extends AsyncLookupFunction {
    private static final long serialVersionUID = 1L;
    private static final long MAX_RETRY_AFTER_MS = 10_000;

    private final HttpSettings settings;
    private final UrlTemplate url;
    private final String method;
    private final UrlValues keys;
    private final int[] keyColumns;
    private final LogicalType[] keyTypes;
    private final LogicalType rowType;
    private final DeserializationSchema<RowData> decoder;
    private final SerializationSchema<RowData> bodyEncoder;
    private final String bodyType;
    private final int maxRetries;
    private final LookupMetadata[] metadata;
    private final java.util.Set<String> metadataHeaders;

    private transient ClientLease lease;
    private transient Client client;
    private transient StrandMetrics metrics;
    private transient RowData.FieldGetter[] rowGetters;
    private transient RowData.FieldGetter[] keyGetters;

    StrandHttpLookupFunction(HttpSettings settings, UrlTemplate url, String method, UrlValues keys,
            int[] keyColumns, LogicalType[] keyTypes, LogicalType rowType, DeserializationSchema<RowData> decoder,
            SerializationSchema<RowData> bodyEncoder, String bodyType, int maxRetries, LookupMetadata[] metadata,
            java.util.Set<String> metadataHeaders) {
        this.settings = settings;
        this.url = url;
        this.method = method;
        this.keys = keys;
        this.keyColumns = keyColumns;
        this.keyTypes = keyTypes;
        this.rowType = rowType;
        this.decoder = decoder;
        this.bodyEncoder = bodyEncoder;
        this.bodyType = bodyType;
        this.maxRetries = maxRetries;
        this.metadata = metadata;
        this.metadataHeaders = metadataHeaders;
    }

    @Override
    public void open(FunctionContext context) throws Exception {
        FormatContext formats = new FormatContext(context.getMetricGroup(), context.getUserCodeClassLoader());
        decoder.open(formats);
        if (bodyEncoder != null) {
            bodyEncoder.open(formats);
        }
        List<LogicalType> fields = rowType.getChildren();
        rowGetters = new RowData.FieldGetter[fields.size()];
        for (int i = 0; i < rowGetters.length; i++) {
            rowGetters[i] = RowData.createFieldGetter(fields.get(i), i);
        }
        keyGetters = new RowData.FieldGetter[keyTypes.length];
        for (int i = 0; i < keyGetters.length; i++) {
            keyGetters[i] = RowData.createFieldGetter(keyTypes[i], i);
        }
        metrics = new StrandMetrics(context.getMetricGroup());
        lease = ClientLease.open(settings);
        client = lease.client();
    }

    @Override
    public void close() throws Exception {
        if (lease != null) {
            lease.close();
            lease = null;
            client = null;
        }
    }

    @Override
    public CompletableFuture<Collection<RowData>> asyncLookup(RowData keyRow) {
        Object[] key = new Object[keyGetters.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = keyGetters[i].getFieldOrNull(keyRow);
            if (key[i] == null) {
                return CompletableFuture.completedFuture(List.of());
            }
            if (key[i] instanceof StringData s) {
                // The planner may reuse the key row's memory once this call returns.
                key[i] = StringData.fromString(s.toString());
            }
        }
        String[] values = keys.read(keyRow);
        Lookup lookup = new Lookup(key, "key " + keys.describe(values), new CompletableFuture<>());
        Request request;
        try {
            Request.Builder b = Request.builder(method, url.expand(name -> keys.valueOf(values, name)));
            if (bodyEncoder != null) {
                b.body(RequestBody.of(bodyEncoder.serialize(keyRow), bodyType));
            }
            request = b.build();
        } catch (RuntimeException e) {
            metrics.error(ErrorKind.MAPPER);
            lookup.result.completeExceptionally(new HttpRecordException(lookup.description, null, ErrorKind.MAPPER, 0,
                    null, "could not make the request: " + e, e));
            return lookup.result;
        }
        send(lookup, request, 0);
        return lookup.result;
    }

    /** One key's lookup: the key's values, a description for messages, and the result. */
    private record Lookup(Object[] key, String description, CompletableFuture<Collection<RowData>> result) {
    }

    private void send(Lookup lookup, Request request, int retries) {
        long start = metrics.started();
        CompletableFuture<Response> call;
        try {
            call = client.async().send(request);
        } catch (RuntimeException e) {
            call = CompletableFuture.failedFuture(e);
        }
        call.whenComplete((response, error) -> {
            metrics.finished(start);
            try {
                if (error != null) {
                    failed(lookup, request, retries, unwrap(error));
                } else {
                    answered(lookup, request, retries, response, System.nanoTime() - start);
                }
            } catch (RuntimeException | LinkageError e) {
                lookup.result.completeExceptionally(e);
            }
        });
    }

    private void failed(Lookup lookup, Request request, int retries, Throwable cause) {
        metrics.error(kind(cause));
        if (cause instanceof TransportException && retries < maxRetries) {
            retry(lookup, request, retries, 0);
            return;
        }
        Request sent = cause instanceof HttpException h && h.request() != null ? h.request() : request;
        lookup.result.completeExceptionally(new HttpRecordException(lookup.description, sent, kind(cause), 0, null,
                cause + retried(retries), cause));
    }

    private void answered(Lookup lookup, Request request, int retries, Response response, long latencyNanos) {
        int status = response.status();
        Request sent = response.request() != null ? response.request() : request;
        if (status == 404) {
            lookup.result.complete(List.of());
            return;
        }
        if (status >= 400 && status != 404) {
            metrics.error(ErrorKind.STATUS);
        }
        if ((status == 429 || status >= 500) && retries < maxRetries) {
            retry(lookup, request, retries, retryAfterMillis(response));
            return;
        }
        if (status >= 400) {
            String reason = response.reason() == null || response.reason().isEmpty() ? "" : " " + response.reason();
            lookup.result.completeExceptionally(new HttpRecordException(lookup.description, sent, ErrorKind.STATUS, status,
                    null, "status " + status + reason + retried(retries), null));
            return;
        }
        byte[] body = response.bytes();
        List<RowData> rows = new ArrayList<>(1);
        if (status != 204 && body.length > 0) {
            try {
                decoder.deserialize(body, new ListCollector(rows));
            } catch (Exception e) {
                metrics.error(ErrorKind.MAPPER);
                lookup.result.completeExceptionally(new HttpRecordException(lookup.description, sent, ErrorKind.MAPPER, status, null, "the table's format could not decode the "
                                + "response body (" + body.length + " bytes): " + e, e));
                return;
            }
        }
        Object[] meta = new Object[metadata.length];
        for (int i = 0; i < meta.length; i++) {
            meta[i] = metadata[i].read(response, latencyNanos, metadataHeaders);
        }
        List<RowData> out = new ArrayList<>(rows.size());
        for (RowData decoded : rows) {
            RowData joined = withKey(decoded, lookup.key, meta);
            if (joined != null) {
                out.add(joined);
            }
        }
        lookup.result.complete(out);
    }

    /**
     * The decoded row with the key's values in missing key columns and the metadata after the physical columns, or
     * null if it holds another key.
     */
    private RowData withKey(RowData decoded, Object[] key, Object[] meta) {
        if (decoded == null) {
            return null;
        }
        GenericRowData row = new GenericRowData(rowGetters.length + meta.length);
        for (int i = 0; i < meta.length; i++) {
            row.setField(rowGetters.length + i, meta[i]);
        }
        for (int i = 0; i < rowGetters.length; i++) {
            row.setField(i, rowGetters[i].getFieldOrNull(decoded));
        }
        for (int i = 0; i < keyColumns.length; i++) {
            Object got = row.getField(keyColumns[i]);
            if (got == null) {
                row.setField(keyColumns[i], key[i]);
            } else if (!Objects.deepEquals(got, key[i])) {
                return null;
            }
        }
        return row;
    }

    private void retry(Lookup lookup, Request request, int retries, long retryAfterMs) {
        long backoff = Math.min(2_000, 100L << Math.min(retries, 10));
        long delay = Math.max(backoff, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
        metrics.retryScheduled(1);
        CompletableFuture.delayedExecutor(delay, TimeUnit.MILLISECONDS)
                .execute(() -> send(lookup, request, retries + 1));
    }

    private static long retryAfterMillis(Response response) {
        String v = response.headers().first("Retry-After");
        if (v == null || v.isBlank() || !v.trim().chars().allMatch(c -> c >= '0' && c <= '9') || v.trim().length() > 6) {
            return 0;
        }
        return Long.parseLong(v.trim()) * 1000;
    }

    private static String retried(int retries) {
        return retries == 0 ? "" : " (after " + retries + (retries == 1 ? " retry)" : " retries)");
    }

    private static ErrorKind kind(Throwable t) {
        if (t instanceof ConnectException || t instanceof ConnectTimeoutException) {
            return ErrorKind.CONNECT;
        }
        if (t instanceof TimeoutException) {
            return ErrorKind.TIMEOUT;
        }
        return t instanceof TransportException ? ErrorKind.TRANSPORT : ErrorKind.OTHER;
    }

    private static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    private record ListCollector(List<RowData> rows) implements Collector<RowData> {
        @Override
        public void collect(RowData row) {
            rows.add(row);
        }

        @Override
        public void close() {
        }
    }
}
