package dev.strand.testkit;

import java.nio.charset.StandardCharsets;

/**
 * The exact bytes {@link TestServer} sends, so clients can check what they received.
 *
 * <p>Every generated body ({@code /bytes/N}, {@code /chunked/N}, {@code /drip}, {@link #BIG}) uses one
 * deterministic sequence: byte {@code i} (counting from 0, as a {@code long}) is {@code (byte) (i * 31 + 7)}.
 * It repeats every 256 bytes, which lets the server stream any length from one pre-filled buffer.
 *
 * <p>The arrays are shared; do not modify them.
 */
public final class Payloads {

    /**
     * The body of {@code /small} and {@code /delay/MS} (186 bytes, {@code application/json}): Python's
     * {@code json.dumps({"id": 42, "name": "widget", "tags": ["a", "b", "c"], "price": 19.99,
     * "in_stock": True, "description": "x" * 80})}.
     */
    public static final byte[] SMALL = ("{\"id\": 42, \"name\": \"widget\", \"tags\": [\"a\", \"b\", \"c\"], "
            + "\"price\": 19.99, \"in_stock\": true, \"description\": \"" + "x".repeat(80) + "\"}")
            .getBytes(StandardCharsets.US_ASCII);

    /** The body of {@code /big}: the first 96256 bytes (94 KiB) of the deterministic sequence. */
    public static final byte[] BIG = bytes(94 * 1024);

    /** The uncompressed JSON that {@code /gzip} sends gzip-compressed. */
    public static final byte[] GZIP_JSON = paddedJson("gzipped");

    /** The uncompressed JSON that {@code /deflate} sends zlib-compressed. */
    public static final byte[] DEFLATE_JSON = paddedJson("deflated");

    private Payloads() {
    }

    /**
     * The first {@code n} bytes of the deterministic sequence: {@code bytes(n)[i] == (byte) (i * 31 + 7)}.
     *
     * @param n how many bytes, {@code >= 0}
     * @return a new array
     */
    public static byte[] bytes(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("n < 0: " + n);
        }
        byte[] out = new byte[n];
        for (int i = 0; i < n; i++) {
            out[i] = at(i);
        }
        return out;
    }

    /** Byte {@code index} of the deterministic sequence, for indexes past {@code int} range. */
    static byte at(long index) {
        return (byte) (index * 31 + 7);
    }

    /** {"gzipped": true, "lines": [...]} of about 5 KiB: compressible, but not trivially so. */
    private static byte[] paddedJson(String flag) {
        Json json = new Json().beginObject().name(flag).value(true).name("lines").beginArray();
        for (int i = 0; i < 64; i++) {
            json.value("line " + i + " of the strand test payload, repeated to make compression worthwhile");
        }
        return json.endArray().endObject().toBytes();
    }
}
