package dev.strand.flink.table;

import dev.strand.Response;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.DataType;

/**
 * The metadata columns a {@code strand-http} lookup table offers ({@code METADATA FROM 'status'}), each read from
 * the response that produced the row.
 */
enum LookupMetadata {
    /** The response's status code. */
    STATUS("status", DataTypes.INT().notNull()),
    /** Milliseconds from sending the request to the response's head, for the attempt that answered. */
    LATENCY("latency-ms", DataTypes.BIGINT().notNull()),
    /** Response headers (those of {@code metadata.headers}, or all), names lower case, values joined by ", ". */
    HEADERS("headers", DataTypes.MAP(DataTypes.STRING(), DataTypes.STRING()).notNull());

    final String key;
    final DataType type;

    LookupMetadata(String key, DataType type) {
        this.key = key;
        this.type = type;
    }

    /** Every key with its type, in declaration order, as the planner asks for them. */
    static Map<String, DataType> readable() {
        Map<String, DataType> m = new LinkedHashMap<>();
        for (LookupMetadata k : values()) {
            m.put(k.key, k.type);
        }
        return m;
    }

    static LookupMetadata of(String key) {
        for (LookupMetadata k : values()) {
            if (k.key.equals(key)) {
                return k;
            }
        }
        throw new IllegalArgumentException("no metadata key '" + key + "'");
    }

    /** This column's value for {@code response}, which took {@code latencyNanos}. */
    Object read(Response response, long latencyNanos, Set<String> headerNames) {
        return switch (this) {
            case STATUS -> response.status();
            case LATENCY -> latencyNanos / 1_000_000;
            case HEADERS -> {
                Map<String, String> joined = new LinkedHashMap<>();
                response.headers().forEach((name, value) -> {
                    String lower = name.toLowerCase(Locale.ROOT);
                    if (headerNames == null || headerNames.contains(lower)) {
                        joined.merge(lower, value, (a, b) -> a + ", " + b);
                    }
                });
                Map<StringData, StringData> map = new HashMap<>();
                joined.forEach((n, v) -> map.put(StringData.fromString(n), StringData.fromString(v)));
                yield new GenericMapData(map);
            }
        };
    }
}
