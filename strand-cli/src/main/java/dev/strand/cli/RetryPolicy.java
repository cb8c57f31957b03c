package dev.strand.cli;

import dev.strand.ConnectException;
import dev.strand.HttpException;
import dev.strand.TimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * When {@code --retry N} tries again: after a connect failure or a timeout before the response
 * arrived, and after 408, 429 and 5xx responses. Waits 1 s, 2 s, 4 s … (capped at 10 minutes), or
 * the fixed {@code --retry-delay}, or what a {@code Retry-After} header asks for. Pure: the caller
 * passes the clock and does the sleeping.
 */
record RetryPolicy(int maxRetries, Duration fixedDelay) {
  static final Duration MAX_DELAY = Duration.ofMinutes(10);

  /** The wait before the next try after {@code failure}, or {@code null} to give up. */
  Duration afterFailure(HttpException failure, int retriesDone) {
    if (retriesDone >= maxRetries) {
      return null;
    }
    boolean transientFailure = failure instanceof ConnectException || failure instanceof TimeoutException;
    return transientFailure ? backoff(retriesDone) : null;
  }

  /** The wait before the next try after a response with {@code status}, or {@code null} to keep it. */
  Duration afterStatus(int status, String retryAfter, int retriesDone, Instant now) {
    if (retriesDone >= maxRetries || !(status == 408 || status == 429 || status >= 500 && status <= 599)) {
      return null;
    }
    Duration asked = parseRetryAfter(retryAfter, now);
    if (asked != null) {
      return asked.compareTo(MAX_DELAY) > 0 ? MAX_DELAY : asked;
    }
    return backoff(retriesDone);
  }

  private Duration backoff(int retriesDone) {
    if (fixedDelay != null) {
      return fixedDelay;
    }
    return retriesDone >= 10 ? MAX_DELAY : Duration.ofSeconds(Math.min(1L << retriesDone, MAX_DELAY.toSeconds()));
  }

  /** {@code Retry-After} as delay-seconds or an HTTP-date (RFC 9110 §10.2.3); {@code null} if absent or invalid. */
  static Duration parseRetryAfter(String value, Instant now) {
    if (value == null || value.isBlank()) {
      return null;
    }
    String v = value.strip();
    if (v.chars().allMatch(c -> c >= '0' && c <= '9')) {
      try {
        return Duration.ofSeconds(Long.parseLong(v));
      } catch (NumberFormatException tooLarge) {
        return MAX_DELAY;
      }
    }
    try {
      Instant at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      Duration d = Duration.between(now, at);
      return d.isNegative() ? Duration.ZERO : d;
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
