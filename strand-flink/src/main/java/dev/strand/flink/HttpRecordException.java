package dev.strand.flink;

import dev.strand.Request;
import java.time.Duration;
import java.util.Optional;

/**
 * The failure of one record's HTTP call in a Flink job, naming the record, the request and the cause. When it
 * reaches Flink (no retry left, no fallback), the job fails with it.
 *
 * <p>The message reads like {@code record "user-17" (GET http://h/users/17): status 503 Service Unavailable}.
 * {@link #kind()}, {@link #status()}, {@link #isIdempotent()} and {@link #retryAfter()} are what
 * {@link StrandRetryStrategy} decides on.
 */
public class HttpRecordException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Longest record description kept in a message. */
    static final int MAX_RECORD_CHARS = 200;

    private final String record;
    private final ErrorKind kind;
    private final int status;
    private final String method;
    private final boolean idempotent;
    private final long retryAfterMillis;

    /**
     * @param record the record, described by {@link String#valueOf(Object)} (cut to 200 characters)
     * @param request the request made for it, or {@code null} if none was made; its method and URL go into the
     *        message, never its headers or body
     * @param kind what failed
     * @param status the response status, or 0 when there was no response
     * @param retryAfter the server's {@code Retry-After}, or {@code null}
     * @param detail what happened, for the message
     * @param cause the underlying exception, or {@code null}
     */
    public HttpRecordException(Object record, Request request, ErrorKind kind, int status, Duration retryAfter,
            String detail, Throwable cause) {
        super(message(describe(record), request == null ? null : Exchanges.describe(request), detail), cause);
        this.record = describe(record);
        this.kind = kind;
        this.status = status;
        this.method = request == null ? null : request.method();
        this.idempotent = request != null && request.isIdempotent();
        this.retryAfterMillis = retryAfter == null ? -1 : retryAfter.toMillis();
    }

    /** @return the record as {@link String#valueOf(Object)} spells it, cut to 200 characters */
    public String record() {
        return record;
    }

    /** @return what failed */
    public ErrorKind kind() {
        return kind;
    }

    /** @return the response status, or 0 when there was no response */
    public int status() {
        return status;
    }

    /** @return the request method, or {@code null} when no request was made */
    public String method() {
        return method;
    }

    /**
     * @return whether the request may be sent again without doing twice what it asks, by the rule of
     *         {@link Request#isIdempotent()} (an idempotent method, or an {@code Idempotency-Key} header);
     *         false when no request was made
     */
    public boolean isIdempotent() {
        return idempotent;
    }

    /** @return the delay the server asked for in {@code Retry-After}, if it gave one in seconds */
    public Optional<Duration> retryAfter() {
        return retryAfterMillis < 0 ? Optional.empty() : Optional.of(Duration.ofMillis(retryAfterMillis));
    }

    static String describe(Object record) {
        String s = String.valueOf(record);
        return s.length() <= MAX_RECORD_CHARS ? s : s.substring(0, MAX_RECORD_CHARS) + "...";
    }

    private static String message(String record, String request, String detail) {
        return "record \"" + record + "\"" + (request == null ? "" : " (" + request + ")") + ": " + detail;
    }
}
