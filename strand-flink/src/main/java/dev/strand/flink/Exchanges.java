package dev.strand.flink;

import dev.strand.Request;
import dev.strand.ResponseHead;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Small pure helpers both the async function and the sink use. */
final class Exchanges {

    private Exchanges() {
    }

    /** {@code "GET http://h/p"}: enough to find the request in a log, without headers or body. */
    static String describe(Request r) {
        return r.method() + " " + r.url();
    }

    /** The cause a future's failure wraps. */
    static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /**
     * The delay a {@code Retry-After} value asks for: delta-seconds or an HTTP-date (RFC 9110 10.2.3).
     *
     * @param head the response head
     * @param now the current time, for HTTP-dates
     * @return the delay (never negative), or null without a valid header
     */
    static Duration retryAfter(ResponseHead head, ZonedDateTime now) {
        String v = head.headers().first("Retry-After");
        if (v == null) {
            return null;
        }
        v = v.trim();
        if (!v.isEmpty() && v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return v.length() > 9 ? Duration.ofSeconds(999_999_999L) : Duration.ofSeconds(Long.parseLong(v));
        }
        try {
            Duration d = Duration.between(now, ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME));
            return d.isNegative() ? Duration.ZERO : d;
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    static String statusLine(ResponseHead head) {
        String reason = head.reason();
        return "status " + head.status() + (reason == null || reason.isEmpty() ? "" : " " + reason);
    }
}
