package dev.strand.flink.table;

import java.time.Duration;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The options of the {@code 'connector' = 'strand-http'} tables, named as Flink's own connectors name theirs.
 * Besides these: {@code format} and its options (e.g. {@code json.ignore-parse-errors}), Flink's
 * {@code lookup.max-retries} and {@code lookup.cache} options for lookups, and {@code sink.batch.max-size},
 * {@code sink.requests.max-inflight}, {@code sink.requests.max-buffered}, {@code sink.flush-buffer.timeout} and
 * {@code sink.parallelism} for sinks.
 */
public final class StrandHttpOptions {

    /** The prefix of header options: {@code 'headers.Authorization' = 'Bearer ...'}. */
    public static final String HEADERS_PREFIX = "headers.";

    /** The request URL, with {@code {column}} placeholders filled from the row (percent-encoded). */
    public static final ConfigOption<String> URL = ConfigOptions.key("url")
            .stringType()
            .noDefaultValue()
            .withDescription("The absolute http(s) URL of each request. {column} placeholders are replaced by the "
                    + "row's value of that column, percent-encoded; in a lookup table they must name lookup keys.");

    /** The request method; GET for lookups, POST for sinks when not set. */
    public static final ConfigOption<String> METHOD = ConfigOptions.key("method")
            .stringType()
            .noDefaultValue()
            .withDescription("The HTTP method: GET by default for lookups, POST by default for sinks. A lookup with "
                    + "POST or PUT sends its key columns encoded with the format as the body.");

    /** The connect timeout. */
    public static final ConfigOption<Duration> TIMEOUT_CONNECT = ConfigOptions.key("timeout.connect")
            .durationType()
            .defaultValue(Duration.ofSeconds(5))
            .withDescription("How long establishing a connection may take.");

    /** The read timeout. */
    public static final ConfigOption<Duration> TIMEOUT_READ = ConfigOptions.key("timeout.read")
            .durationType()
            .defaultValue(Duration.ofSeconds(5))
            .withDescription("The longest silence while waiting for the response.");

    /** The pool size per subtask. */
    public static final ConfigOption<Integer> POOL_SIZE = ConfigOptions.key("pool.size")
            .intType()
            .defaultValue(100)
            .withDescription("The most connections one parallel subtask opens. For lookups, match the planner's "
                    + "'table.exec.async-lookup.buffer-capacity' (default 100).");

    /** Whether the subtasks in one JVM share a client. */
    public static final ConfigOption<Boolean> SHARED_CLIENT = ConfigOptions.key("client.shared")
            .booleanType()
            .defaultValue(false)
            .withDescription("One client for all the table's subtasks in a TaskManager, in place of one each: "
                    + "fewer I/O threads and connections. 'pool.size' then counts the connections of all of them.");

    /** The sink's attempts per row. */
    public static final ConfigOption<Integer> SINK_MAX_ATTEMPTS = ConfigOptions.key("sink.max-attempts")
            .intType()
            .defaultValue(10)
            .withDescription("Requests made for one row (on connect failures, timeouts, 408, 429 and 5xx) before "
                    + "the job fails.");

    /** Which response headers a lookup's {@code headers} metadata column holds. */
    public static final ConfigOption<java.util.List<String>> METADATA_HEADERS = ConfigOptions.key("metadata.headers")
            .stringType()
            .asList()
            .noDefaultValue()
            .withDescription("The response headers a lookup table's 'headers' metadata column holds, e.g. "
                    + "'ETag;X-RateLimit-Remaining' (names case-insensitive; the map's keys are lower case). "
                    + "Without it the column holds every response header.");

    /** Whether the sink sends each row's idempotency key. */
    public static final ConfigOption<Boolean> SINK_IDEMPOTENCY_KEYS = ConfigOptions.key("sink.idempotency-keys")
            .booleanType()
            .defaultValue(false)
            .withDescription("Send each row with an idempotency key derived from its request (method, URL, content "
                    + "type, body), the same after a restore: effectively-once delivery to a server that honours "
                    + "the key. Two identical rows share a key, so such a server applies one of them.");

    /** The header that carries the key. */
    public static final ConfigOption<String> SINK_IDEMPOTENCY_KEY_HEADER = ConfigOptions
            .key("sink.idempotency-key.header")
            .stringType()
            .defaultValue("Idempotency-Key")
            .withDescription("The header that carries a row's idempotency key.");

    /** Whether the key is sent as an sf-string. */
    public static final ConfigOption<Boolean> SINK_IDEMPOTENCY_KEY_QUOTED = ConfigOptions
            .key("sink.idempotency-key.quoted")
            .booleanType()
            .defaultValue(true)
            .withDescription("Send the key as an RFC 8941 sf-string (\"key\"), as the IETF draft defines "
                    + "Idempotency-Key; false sends it bare.");

    private StrandHttpOptions() {
    }
}
