package dev.strand.flink;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import org.apache.flink.api.java.functions.KeySelector;

/**
 * How {@link StrandHttpSink} keys its entries: the header's name and form, and where a key comes from (the user's
 * extractor, or the entry's content). Pure functions, tested without Flink.
 *
 * @param header the header's name
 * @param quoted send the key as an RFC 8941 sf-string ({@code "key"}), as the IETF draft's
 *        {@code Idempotency-Key} field is defined; false sends it bare
 * @param extractor the user's key for a record, or null to derive it from the entry
 * @param <IN> the record type
 */
record IdempotencyKeys<IN>(String header, boolean quoted, KeySelector<IN, String> extractor) implements Serializable {

    static final String DEFAULT_HEADER = "Idempotency-Key";

    /** Longest key accepted: what payment APIs allow (Stripe: 255). */
    static final int MAX_LENGTH = 255;

    IdempotencyKeys {
        Objects.requireNonNull(header, "header");
    }

    /** The entry with its key: the extractor's, or one derived from the entry's content. */
    HttpSinkEntry assign(IN record, HttpSinkEntry entry) {
        String key;
        if (extractor == null) {
            key = contentKey(entry);
        } else {
            try {
                key = extractor.getKey(record);
            } catch (Exception e) {
                throw new IllegalArgumentException("the idempotency key extractor threw for " + entry + ": " + e, e);
            }
            String why = invalid(key);
            if (why != null) {
                throw new IllegalArgumentException("the idempotency key extractor returned " + why + " for " + entry);
            }
        }
        return entry.withIdempotencyKey(key);
    }

    /** The header's value for {@code key}. */
    String headerValue(String key) {
        if (!quoted) {
            return key;
        }
        StringBuilder b = new StringBuilder(key.length() + 2).append('"');
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\');
            }
            b.append(c);
        }
        return b.append('"').toString();
    }

    /**
     * 128 bits of SHA-256 over the entry's method, URL, content type and body, as 32 hex digits: the same entry
     * gives the same key in every JVM, so a record re-read from the source after a restore is sent under the key it
     * had before. The attempt count is left out: a retry is the same write.
     */
    static String contentKey(HttpSinkEntry e) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("every JDK has SHA-256", ex);
        }
        field(sha, e.method().getBytes(StandardCharsets.UTF_8));
        field(sha, e.url().getBytes(StandardCharsets.UTF_8));
        // No content type hashes as a byte that no UTF-8 text is, so it equals no content type that was given.
        byte[] type = e.contentType() == null
                ? new byte[] {(byte) 0xff}
                : e.contentType().getBytes(StandardCharsets.UTF_8);
        field(sha, type);
        field(sha, e.body());
        return HexFormat.of().formatHex(sha.digest(), 0, 16);
    }

    // Length-prefixed, so that moving a byte from one field to the next changes the key.
    private static void field(MessageDigest sha, byte[] bytes) {
        sha.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
        sha.update(bytes);
    }

    /** Why {@code key} cannot be sent in a header, or null if it can: 1 to 255 visible ASCII characters. */
    static String invalid(String key) {
        if (key == null) {
            return "null";
        }
        if (key.isEmpty() || key.length() > MAX_LENGTH) {
            return "a key of " + key.length() + " characters (1 to " + MAX_LENGTH + " allowed)";
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                return "a key with character U+" + String.format("%04X", (int) c) + " at index " + i
                        + " (visible ASCII only)";
            }
        }
        return null;
    }
}
