package dev.strand.flink;

import dev.strand.Client;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.Response;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.functions.util.ListCollector;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.AsyncLookupFunction;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;

/**
 * One request per lookup key on this subtask's Strand client; the body decoded by the table's format. A 404 is no
 * row; other failures complete the lookup exceptionally with an {@link HttpRecordException}. Public because
 * Flink instantiates lookup functions reflectively; built by {@link StrandHttpTableFactory} only.
 */
public final class StrandHttpLookupFunction extends AsyncLookupFunction {
    private static final long serialVersionUID = 1L;
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^{}]*)}");

    private final HttpSettings settings;
    private final StrandHttpTableFactory.UrlTemplate template;
    private final String method;
    private final List<String> keys;
    private final List<LogicalType> keyTypes;
    private final DeserializationSchema<RowData> decoder;
    private final SerializationSchema<RowData> encoder;
    private final String contentType;
    private transient Client client;
    private transient StrandMetrics metrics;

    StrandHttpLookupFunction(HttpSettings settings, StrandHttpTableFactory.UrlTemplate template, String method,
            List<String> keys, List<LogicalType> keyTypes, DeserializationSchema<RowData> decoder,
            SerializationSchema<RowData> encoder, String contentType) {
        this.settings = settings;
        this.template = template;
        this.method = method;
        this.keys = List.copyOf(keys);
        this.keyTypes = List.copyOf(keyTypes);
        this.decoder = decoder;
        this.encoder = encoder;
        this.contentType = contentType;
    }

    @Override
    public void open(FunctionContext context) throws Exception {
        MetricGroup group = context.getMetricGroup();
        decoder.open(new DeserializationSchema.InitializationContext() {
            @Override
            public MetricGroup getMetricGroup() {
                return group;
            }

            @Override
            public UserCodeClassLoader getUserCodeClassLoader() {
                return SimpleUserCodeClassLoader.create(context.getUserCodeClassLoader());
            }
        });
        if (encoder != null) {
            encoder.open(new SerializationSchema.InitializationContext() {
                @Override
                public MetricGroup getMetricGroup() {
                    return group;
                }

                @Override
                public UserCodeClassLoader getUserCodeClassLoader() {
                    return SimpleUserCodeClassLoader.create(context.getUserCodeClassLoader());
                }
            });
        }
        metrics = new StrandMetrics(group);
        client = settings.newClient();
    }

    @Override
    public void close() throws Exception {
        if (client != null) {
            client.close();
            client = null;
        }
    }

    @Override
    public CompletableFuture<Collection<RowData>> asyncLookup(RowData keyRow) {
        String key = describe(keyRow);
        Request request;
        try {
            Request.Builder b = Request.builder(method, path(keyRow));
            if (encoder != null) {
                b.body(RequestBody.of(encoder.serialize(keyRow), contentType));
            }
            request = b.build();
        } catch (RuntimeException e) {
            metrics.error(ErrorKind.MAPPER);
            return CompletableFuture.failedFuture(new HttpRecordException(key, null, method, ErrorKind.MAPPER, 0,
                    null, "could not build the request from '" + template.raw() + "': " + e, e));
        }
        long start = metrics.started();
        CompletableFuture<Response> call;
        try {
            call = client.async().send(request);
        } catch (RuntimeException e) {
            call = CompletableFuture.failedFuture(e);
        }
        CompletableFuture<Collection<RowData>> out = new CompletableFuture<>();
        call.whenComplete((response, error) -> {
            metrics.finished(start);
            if (error != null) {
                Throwable cause = Exchanges.unwrap(error);
                ErrorKind kind = ErrorKind.of(cause);
                metrics.error(kind);
                out.completeExceptionally(new HttpRecordException(key, Exchanges.describe(request), method, kind, 0,
                        null, cause.toString(), cause));
            } else if (response.status() == 404) {
                out.complete(List.of());
            } else if (response.status() >= 400) {
                metrics.error(ErrorKind.STATUS);
                out.completeExceptionally(new HttpRecordException(key, Exchanges.describe(request), method,
                        ErrorKind.STATUS, response.status(), null, Exchanges.statusLine(response), null));
            } else {
                try {
                    // A format may give no row, one, or several (a JSON array, say): each is a match.
                    List<RowData> rows = new java.util.ArrayList<>(1);
                    decoder.deserialize(response.bytes(), new ListCollector<>(rows));
                    out.complete(rows);
                } catch (Exception | LinkageError e) {
                    metrics.error(ErrorKind.MAPPER);
                    out.completeExceptionally(new HttpRecordException(key, Exchanges.describe(request), method,
                            ErrorKind.MAPPER, response.status(), null, "the format could not decode the body: " + e,
                            e));
                }
            }
        });
        return out;
    }

    /** The template's path with each placeholder replaced by its key's value, URL-encoded. */
    private String path(RowData keyRow) {
        Matcher m = PLACEHOLDER.matcher(template.path());
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            int i = keys.indexOf(m.group(1).trim());
            String value = keyRow.isNullAt(i) ? "" : keyValue(keyRow, i);
            m.appendReplacement(b, Matcher.quoteReplacement(
                    URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20")));
        }
        m.appendTail(b);
        return b.toString();
    }

    private String keyValue(RowData row, int i) {
        Object v = RowData.createFieldGetter(keyTypes.get(i), i).getFieldOrNull(row);
        return String.valueOf(v);
    }

    private String describe(RowData keyRow) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < keys.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(keys.get(i)).append('=');
            b.append(keyRow.isNullAt(i) ? "null" : keyValue(keyRow, i));
        }
        return b.toString();
    }
}
