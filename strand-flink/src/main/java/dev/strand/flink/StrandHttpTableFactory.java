package dev.strand.flink;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.format.DecodingFormat;
import org.apache.flink.table.connector.format.EncodingFormat;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DeserializationFormatFactory;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.SerializationFormatFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.DataType;

/**
 * The {@code 'connector' = 'strand-http'} table factory: an async lookup source for lookup joins, one GET (or
 * another method without a body) per key on Strand's client, the response body decoded by a Flink format
 * ({@code 'format' = 'json'}).
 *
 * <pre>{@code
 * CREATE TABLE users (id STRING, name STRING) WITH (
 *   'connector' = 'strand-http',
 *   'url' = 'http://users.internal:8080/users/{id}',
 *   'format' = 'json',
 *   'read.timeout' = '5 s',
 *   'pool.size' = '100');
 * SELECT o.id, u.name FROM orders AS o
 *   JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.id = u.id;
 * }</pre>
 *
 * <p>Each {@code {column}} of the URL template is replaced by the lookup key's value (URL-encoded); every
 * placeholder must name a column, and every column named must be a join key. With {@code 'method'} POST, PUT,
 * PATCH or QUERY the request's body is the row of lookup keys, encoded by the same format
 * ({@code 'lookup.content-type'}, {@code application/json} by default). A 404 is "no row"; any other status
 * ≥ 400, a transport failure or a body the format cannot decode fails the job with an {@link HttpRecordException}
 * naming the key and the request.
 *
 * <p>As a sink ({@code INSERT INTO}), each row is encoded by the format and sent to {@code url} (no placeholders)
 * with {@code method} (POST by default), through {@link StrandHttpSink}.
 */
public final class StrandHttpTableFactory implements DynamicTableSourceFactory, DynamicTableSinkFactory {

    /** The factory identifier. */
    public static final String IDENTIFIER = "strand-http";

    /** The URL template, with {@code {column}} placeholders for the lookup keys. */
    public static final ConfigOption<String> URL = ConfigOptions.key("url").stringType().noDefaultValue()
            .withDescription("URL template, e.g. http://host:8080/users/{id}: each {column} is a lookup key.");

    /** The request method: GET by default for lookups (no request body), POST for the sink. */
    public static final ConfigOption<String> METHOD = ConfigOptions.key("method").stringType().noDefaultValue()
            .withDescription("HTTP method: of the lookup request (no body; GET by default), or of each row the "
                    + "sink sends (POST by default).");

    /** The {@code Content-Type} of a lookup request's body (POST, PUT, PATCH, QUERY lookups). */
    public static final ConfigOption<String> LOOKUP_CONTENT_TYPE = ConfigOptions.key("lookup.content-type")
            .stringType().defaultValue("application/json")
            .withDescription("Content-Type of the body of a POST/PUT/PATCH/QUERY lookup: the lookup keys as a row "
                    + "encoded by the format.");

    /** The sink's {@code Content-Type}. */
    public static final ConfigOption<String> SINK_CONTENT_TYPE = ConfigOptions.key("sink.content-type").stringType()
            .defaultValue("application/json").withDescription("Content-Type of the rows the sink sends.");

    /** Attempts per row before the sink fails the job. */
    public static final ConfigOption<Integer> SINK_MAX_ATTEMPTS = ConfigOptions.key("sink.max-attempts").intType()
            .defaultValue(10).withDescription("Attempts per row (408, 429, 5xx, connection failures are retried) "
                    + "before the job fails.");

    /** Headers sent with every request. */
    public static final ConfigOption<Map<String, String>> HEADERS = ConfigOptions.key("headers").mapType()
            .defaultValue(Map.of())
            .withDescription("Headers of every request, e.g. 'Accept:application/json,X-Team:data'.");

    /** Connect timeout. */
    public static final ConfigOption<Duration> CONNECT_TIMEOUT = ConfigOptions.key("connect.timeout").durationType()
            .defaultValue(Duration.ofSeconds(10)).withDescription("Connect timeout.");

    /** Read timeout (between bytes of the response). */
    public static final ConfigOption<Duration> READ_TIMEOUT = ConfigOptions.key("read.timeout").durationType()
            .defaultValue(Duration.ofSeconds(30)).withDescription("Read timeout.");

    /** Connections per parallel subtask: the lookups in flight at once. */
    public static final ConfigOption<Integer> POOL_SIZE = ConfigOptions.key("pool.size").intType().defaultValue(100)
            .withDescription("Connections per parallel subtask (lookups in flight at once).");

    private static final Set<String> BODY_METHODS = Set.of("POST", "PUT", "PATCH", "QUERY");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^{}]*)}");
    private static final Pattern TEMPLATE = Pattern.compile("(https?://[^/?#{}]+)(/[^#]*)?");

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(URL, FactoryUtil.FORMAT);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return new LinkedHashSet<>(List.of(METHOD, HEADERS, CONNECT_TIMEOUT, READ_TIMEOUT, POOL_SIZE,
                LOOKUP_CONTENT_TYPE, SINK_CONTENT_TYPE, SINK_MAX_ATTEMPTS));
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        DecodingFormat<DeserializationSchema<RowData>> format =
                helper.discoverDecodingFormat(DeserializationFormatFactory.class, FactoryUtil.FORMAT);
        ReadableConfig options = helper.getOptions();
        String method = method(options, "GET");
        // A lookup with a body sends its keys as a row, encoded by the same format.
        EncodingFormat<SerializationSchema<RowData>> keyFormat = BODY_METHODS.contains(method)
                ? helper.discoverEncodingFormat(SerializationFormatFactory.class, FactoryUtil.FORMAT)
                : null;
        helper.validate();
        DataType physical = context.getPhysicalRowDataType();
        List<String> columns = DataType.getFieldNames(physical);
        UrlTemplate template = UrlTemplate.parse(options.get(URL), columns);
        return new StrandHttpLookupSource(settings(options, template), template, method, format, keyFormat,
                options.get(LOOKUP_CONTENT_TYPE), physical);
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        EncodingFormat<SerializationSchema<RowData>> format =
                helper.discoverEncodingFormat(SerializationFormatFactory.class, FactoryUtil.FORMAT);
        helper.validate();
        ReadableConfig options = helper.getOptions();
        DataType physical = context.getPhysicalRowDataType();
        UrlTemplate template = UrlTemplate.parse(options.get(URL), DataType.getFieldNames(physical));
        if (!template.placeholders().isEmpty()) {
            throw new ValidationException("'url' = '" + template.raw() + "': the strand-http sink sends every row "
                    + "to one URL, without {placeholders}");
        }
        return new StrandHttpTableSink(settings(options, template), template.path(), method(options, "POST"),
                options.get(SINK_CONTENT_TYPE), options.get(SINK_MAX_ATTEMPTS), format, physical);
    }

    private static String method(ReadableConfig options, String dflt) {
        String method = options.getOptional(METHOD).orElse(dflt).trim().toUpperCase(java.util.Locale.ROOT);
        if (!method.matches("[A-Z]+")) {
            throw new ValidationException("'method' must be an HTTP method, not '" + options.get(METHOD) + "'");
        }
        return method;
    }

    private static HttpSettings settings(ReadableConfig options, UrlTemplate template) {
        HttpSettings.Builder settings = HttpSettings.builder()
                .baseUrl(template.base())
                .connectTimeout(options.get(CONNECT_TIMEOUT))
                .readTimeout(options.get(READ_TIMEOUT))
                .poolSize(options.get(POOL_SIZE));
        options.get(HEADERS).forEach(settings::header);
        return settings.build();
    }

    /** A parsed URL template: the base URL and the path with its placeholders. */
    record UrlTemplate(String raw, String base, String path, List<String> placeholders)
            implements java.io.Serializable {

        static UrlTemplate parse(String raw, List<String> columns) {
            Matcher m = TEMPLATE.matcher(raw == null ? "" : raw.trim());
            if (!m.matches()) {
                throw new ValidationException("'url' = '" + raw + "' is not a URL template: expected "
                        + "http(s)://host[:port]/path, with {column} placeholders in the path or query");
            }
            String path = m.group(2) == null ? "/" : m.group(2);
            if (path.chars().filter(c -> c == '{').count() != path.chars().filter(c -> c == '}').count()) {
                throw new ValidationException("'url' = '" + raw + "': unbalanced { } in the template");
            }
            List<String> names = new java.util.ArrayList<>();
            Matcher p = PLACEHOLDER.matcher(path);
            while (p.find()) {
                String name = p.group(1).trim();
                if (!columns.contains(name)) {
                    throw new ValidationException("'url' = '" + raw + "': placeholder {" + name
                            + "} names no column of the table " + columns);
                }
                names.add(name);
            }
            return new UrlTemplate(raw, m.group(1), path, List.copyOf(names));
        }
    }
}
