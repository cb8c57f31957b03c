package dev.strand.flink.table;

import dev.strand.flink.HttpSettings;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.base.table.AsyncSinkConnectorOptions;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.format.DecodingFormat;
import org.apache.flink.table.connector.format.EncodingFormat;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.lookup.LookupOptions;
import org.apache.flink.table.connector.source.lookup.cache.DefaultLookupCache;
import org.apache.flink.table.connector.source.lookup.cache.LookupCache;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DeserializationFormatFactory;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.factories.SerializationFormatFactory;
import org.apache.flink.table.types.DataType;

/**
 * The factory of {@code 'connector' = 'strand-http'} tables: a lookup source for lookup joins
 * ({@code JOIN ... FOR SYSTEM_TIME AS OF}), whose rows come from one request per key on Strand's async client,
 * and a sink for {@code INSERT INTO}, one request per row. Flink finds it through {@link java.util.ServiceLoader}.
 * Options: {@link StrandHttpOptions}; every option is checked when the statement is planned, and a bad one ends
 * as a {@link ValidationException} naming it.
 *
 * {@snippet lang=sql :
 * CREATE TABLE users (
 *   id BIGINT,
 *   name STRING,
 *   country STRING
 * ) WITH (
 *   'connector' = 'strand-http',
 *   'url' = 'http://users.internal:8080/users/{id}',
 *   'format' = 'json',
 *   'headers.Authorization' = 'Bearer ...'
 * );
 * SELECT o.order_id, u.name
 * FROM orders AS o JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.user_id = u.id;
 * }
 */
public final class StrandHttpTableFactory implements DynamicTableSourceFactory, DynamicTableSinkFactory {

    /** The value of {@code 'connector'}. */
    public static final String IDENTIFIER = "strand-http";

    /** Creates the factory; Flink's service loader calls this. */
    public StrandHttpTableFactory() {
    }

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(StrandHttpOptions.URL, FactoryUtil.FORMAT);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> options = new HashSet<>(List.of(StrandHttpOptions.METHOD,
                StrandHttpOptions.TIMEOUT_CONNECT, StrandHttpOptions.TIMEOUT_READ, StrandHttpOptions.POOL_SIZE,
                StrandHttpOptions.SHARED_CLIENT,
                StrandHttpOptions.SINK_MAX_ATTEMPTS, StrandHttpOptions.METADATA_HEADERS,
                StrandHttpOptions.SINK_IDEMPOTENCY_KEYS, StrandHttpOptions.SINK_IDEMPOTENCY_KEY_HEADER,
                StrandHttpOptions.SINK_IDEMPOTENCY_KEY_QUOTED, LookupOptions.MAX_RETRIES, LookupOptions.CACHE_TYPE,
                LookupOptions.PARTIAL_CACHE_EXPIRE_AFTER_ACCESS, LookupOptions.PARTIAL_CACHE_EXPIRE_AFTER_WRITE,
                LookupOptions.PARTIAL_CACHE_CACHE_MISSING_KEY, LookupOptions.PARTIAL_CACHE_MAX_ROWS,
                AsyncSinkConnectorOptions.MAX_BATCH_SIZE, AsyncSinkConnectorOptions.MAX_IN_FLIGHT_REQUESTS,
                AsyncSinkConnectorOptions.MAX_BUFFERED_REQUESTS, AsyncSinkConnectorOptions.FLUSH_BUFFER_TIMEOUT,
                FactoryUtil.SINK_PARALLELISM));
        return options;
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        DecodingFormat<DeserializationSchema<RowData>> decoding =
                helper.discoverDecodingFormat(DeserializationFormatFactory.class, FactoryUtil.FORMAT);
        helper.validateExcept(StrandHttpOptions.HEADERS_PREFIX);
        ReadableConfig options = helper.getOptions();
        DataType row = context.getPhysicalRowDataType();
        UrlTemplate url = url(options, row);
        String method = method(options, "GET");
        EncodingFormat<SerializationSchema<RowData>> encoding = null;
        if (!method.equals("GET") && !method.equals("HEAD") && !method.equals("DELETE")) {
            // A lookup that sends a body sends the key columns, encoded with the table's format.
            encoding = helper.discoverEncodingFormat(SerializationFormatFactory.class, FactoryUtil.FORMAT);
        }
        LookupCache cache = null;
        switch (options.get(LookupOptions.CACHE_TYPE)) {
            case PARTIAL -> cache = DefaultLookupCache.fromConfig(options);
            case FULL -> throw new ValidationException("Invalid value for option '" + LookupOptions.CACHE_TYPE.key()
                    + "': a strand-http table cannot be read whole; use 'PARTIAL' or 'NONE'.");
            case NONE -> {
            }
        }
        int retries = options.get(LookupOptions.MAX_RETRIES);
        if (retries < 0) {
            throw new ValidationException("Invalid value for option '" + LookupOptions.MAX_RETRIES.key()
                    + "': must be >= 0, was " + retries);
        }
        return new StrandHttpLookupSource(row, decoding, encoding, url, method, contentType(context, options),
                settings(context, options), retries, cache, metadataHeaders(options));
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        EncodingFormat<SerializationSchema<RowData>> encoding =
                helper.discoverEncodingFormat(SerializationFormatFactory.class, FactoryUtil.FORMAT);
        helper.validateExcept(StrandHttpOptions.HEADERS_PREFIX);
        ReadableConfig options = helper.getOptions();
        DataType row = context.getPhysicalRowDataType();
        UrlTemplate url = url(options, row);
        String method = method(options, "POST");
        int attempts = options.get(StrandHttpOptions.SINK_MAX_ATTEMPTS);
        if (attempts < 1) {
            throw new ValidationException("Invalid value for option '" + StrandHttpOptions.SINK_MAX_ATTEMPTS.key()
                    + "': must be >= 1, was " + attempts);
        }
        String keyHeader = null;
        if (options.get(StrandHttpOptions.SINK_IDEMPOTENCY_KEYS)) {
            keyHeader = options.get(StrandHttpOptions.SINK_IDEMPOTENCY_KEY_HEADER);
            if (keyHeader.isEmpty() || !keyHeader.chars().allMatch(StrandHttpTableFactory::tokenChar)) {
                throw new ValidationException("Invalid value for option '"
                        + StrandHttpOptions.SINK_IDEMPOTENCY_KEY_HEADER.key() + "': '" + keyHeader
                        + "' is not a header name");
            }
        }
        return new StrandHttpTableSink(row, encoding, url, method, contentType(context, options),
                settings(context, options), attempts, options, keyHeader,
                options.get(StrandHttpOptions.SINK_IDEMPOTENCY_KEY_QUOTED));
    }

    /** The template, checked against the table's columns. */
    private static UrlTemplate url(ReadableConfig options, DataType row) {
        String text = options.get(StrandHttpOptions.URL);
        UrlTemplate url;
        try {
            url = UrlTemplate.parse(text);
        } catch (IllegalArgumentException e) {
            throw invalidUrl(text, e.getMessage());
        }
        List<String> columns = DataType.getFieldNames(row);
        for (String name : url.columns()) {
            int i = columns.indexOf(name);
            if (i < 0) {
                throw invalidUrl(text, "the placeholder {" + name + "} names no column; the columns are " + columns);
            }
            var type = DataType.getFieldDataTypes(row).get(i).getLogicalType();
            if (!UrlValues.SUPPORTED.contains(type.getTypeRoot())) {
                throw invalidUrl(text, "the placeholder {" + name + "} names a column of type " + type
                        + ", which has no text form for a URL");
            }
        }
        return url;
    }

    /** The lower-case names of {@code metadata.headers}, or null for every header. */
    private static java.util.Set<String> metadataHeaders(ReadableConfig options) {
        List<String> names = options.getOptional(StrandHttpOptions.METADATA_HEADERS).orElse(null);
        if (names == null) {
            return null;
        }
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        for (String n : names) {
            String name = n.trim();
            if (name.isEmpty() || !name.chars().allMatch(StrandHttpTableFactory::tokenChar)) {
                throw new ValidationException("Invalid value for option '" + StrandHttpOptions.METADATA_HEADERS.key()
                        + "': '" + name + "' is not a header name");
            }
            out.add(name.toLowerCase(Locale.ROOT));
        }
        return out;
    }

    static ValidationException invalidUrl(String text, String why) {
        return new ValidationException("Invalid value for option '" + StrandHttpOptions.URL.key() + "' ('" + text
                + "'): " + why);
    }

    private static String method(ReadableConfig options, String byDefault) {
        String method = options.getOptional(StrandHttpOptions.METHOD).orElse(byDefault).toUpperCase(Locale.ROOT);
        if (method.isEmpty() || !method.chars().allMatch(c -> c >= 'A' && c <= 'Z' || c == '-' || c == '_')) {
            throw new ValidationException("Invalid value for option '" + StrandHttpOptions.METHOD.key() + "': '"
                    + method + "' is not an HTTP method");
        }
        return method;
    }

    /** The {@code headers.*} options, as given. */
    private static Map<String, String> headers(Context context) {
        Map<String, String> headers = new LinkedHashMap<>();
        context.getCatalogTable().getOptions().forEach((key, value) -> {
            if (key.startsWith(StrandHttpOptions.HEADERS_PREFIX)) {
                String name = key.substring(StrandHttpOptions.HEADERS_PREFIX.length());
                if (name.isEmpty() || !name.chars().allMatch(StrandHttpTableFactory::tokenChar)) {
                    throw new ValidationException("Invalid option '" + key + "': '" + name
                            + "' is not a header name");
                }
                if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
                    throw new ValidationException("Invalid value for option '" + key + "': a header value cannot "
                            + "hold a line break");
                }
                headers.put(name, value);
            }
        });
        return headers;
    }

    private static boolean tokenChar(int c) {
        return c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
    }

    /** The content type of bodies: a {@code headers.Content-Type} option, else the format's media type. */
    private static String contentType(Context context, ReadableConfig options) {
        String type = null;
        for (Map.Entry<String, String> h : headers(context).entrySet()) {
            if (h.getKey().equalsIgnoreCase("Content-Type")) {
                type = h.getValue();
            }
        }
        return type != null ? type : contentType(options.get(FactoryUtil.FORMAT));
    }

    private static HttpSettings settings(Context context, ReadableConfig options) {
        HttpSettings.Builder b = HttpSettings.builder()
                .connectTimeout(options.get(StrandHttpOptions.TIMEOUT_CONNECT))
                .readTimeout(options.get(StrandHttpOptions.TIMEOUT_READ));
        int pool = options.get(StrandHttpOptions.POOL_SIZE);
        if (pool < 1) {
            throw new ValidationException("Invalid value for option '" + StrandHttpOptions.POOL_SIZE.key()
                    + "': must be >= 1, was " + pool);
        }
        b.poolSize(pool).sharedClient(options.get(StrandHttpOptions.SHARED_CLIENT));
        headers(context).forEach((name, value) -> {
            // Bodies carry their content type themselves; a second header would contradict it.
            if (!name.equalsIgnoreCase("Content-Type")) {
                b.header(name, value);
            }
        });
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new ValidationException("Invalid timeout options: " + e.getMessage(), e);
        }
    }

    /** The media type of a format's bytes, by the format's name. */
    static String contentType(String format) {
        if (format.endsWith("json")) {
            return "application/json";
        }
        return switch (format) {
            case "csv" -> "text/csv";
            default -> "application/octet-stream";
        };
    }
}
