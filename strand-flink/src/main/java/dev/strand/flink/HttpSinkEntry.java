package dev.strand.flink;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One record as {@link StrandHttpSink} buffers it: a method, a URL, a content type and the body bytes, and, when the
 * sink sends idempotency keys ({@link StrandHttpSink.Builder#idempotencyKeys()}), the entry's key. Buffered entries,
 * keys included, are part of the sink's checkpointed state. In batch mode ({@link StrandHttpSink.Builder#batch})
 * only the body counts: the batch's request has its own method and URL.
 *
 * {@snippet :
 * SinkEncoder<Event> encoder = e -> HttpSinkEntry.of("POST", "/events", "application/json", e.toJson());
 * }
 */
public final class HttpSinkEntry implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String method;
    private final String url;
    private final String contentType;
    private final byte[] body;
    private final int attempts;
    private final String idempotencyKey;

    HttpSinkEntry(String method, String url, String contentType, byte[] body, int attempts, String idempotencyKey) {
        this.method = Objects.requireNonNull(method, "method");
        this.url = Objects.requireNonNull(url, "url");
        this.contentType = contentType;
        this.body = Objects.requireNonNull(body, "body");
        this.attempts = attempts;
        this.idempotencyKey = idempotencyKey;
    }

    /**
     * @param method e.g. {@code "POST"}
     * @param url absolute, or relative to {@link HttpSettings#baseUrl()}
     * @param contentType the body's media type, or {@code null}
     * @param body the body (not copied: do not change it afterwards)
     * @return the entry
     */
    public static HttpSinkEntry of(String method, String url, String contentType, byte[] body) {
        return new HttpSinkEntry(method, url, contentType, body, 0, null);
    }

    /**
     * @param url absolute, or relative to {@link HttpSettings#baseUrl()}
     * @param json a JSON document
     * @return a {@code POST} of {@code json} as {@code application/json}
     */
    public static HttpSinkEntry postJson(String url, String json) {
        return of("POST", url, "application/json", json.getBytes(StandardCharsets.UTF_8));
    }

    /** @return the method */
    public String method() {
        return method;
    }

    /** @return the URL */
    public String url() {
        return url;
    }

    /** @return the content type, or {@code null} */
    public String contentType() {
        return contentType;
    }

    /** @return the body (not a copy) */
    public byte[] body() {
        return body;
    }

    /** @return requests already made for this entry without success */
    public int attempts() {
        return attempts;
    }

    /**
     * @return the key the sink sends with this entry's every request, the same after a restore; {@code null} when
     *         the sink sends none
     */
    public String idempotencyKey() {
        return idempotencyKey;
    }

    HttpSinkEntry nextAttempt() {
        return new HttpSinkEntry(method, url, contentType, body, attempts + 1, idempotencyKey);
    }

    HttpSinkEntry withIdempotencyKey(String key) {
        return new HttpSinkEntry(method, url, contentType, body, attempts, key);
    }

    long sizeInBytes() {
        return body.length + url.length() + method.length() + 16L
                + (idempotencyKey == null ? 0 : idempotencyKey.length());
    }

    @Override
    public String toString() {
        String text = new String(body, 0, Math.min(body.length, 80), StandardCharsets.UTF_8);
        return method + " " + url + (idempotencyKey == null ? "" : " (key " + idempotencyKey + ")") + " ["
                + body.length + " bytes: " + text + (body.length > 80 ? "...]" : "]");
    }
}
