package dev.strand.internal.client;

import dev.strand.Request;
import dev.strand.RetryPolicy;
import dev.strand.TransportException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.function.DoubleSupplier;

/**
 * Whether and when a policy retries, as pure steps: given what the last attempt ended with, the
 * wait before the next one, or {@code null} for none. The clock and the randomness are passed in.
 */
final class Retries {
  private Retries() {}

  /** The wait before retrying after {@code failure}, or {@code null}. */
  static Duration afterFailure(RetryPolicy policy, Request request, Throwable failure, int attemptsDone,
      DoubleSupplier random) {
    if (attemptsDone >= policy.maxAttempts() || !replayable(request)) {
      return null;
    }
    if (failure instanceof TransportException t && t.isRetryable()
        && (!t.mayHaveReachedServer() || policy.retryNonIdempotent() || request.isIdempotent())) {
      return backoff(policy, attemptsDone, random);
    }
    return null;
  }

  /** The wait before retrying after a response with {@code status}, or {@code null} to keep the response. */
  static Duration afterStatus(RetryPolicy policy, Request request, int status, String retryAfter, int attemptsDone,
      Instant now, DoubleSupplier random) {
    if (attemptsDone >= policy.maxAttempts() || !policy.retriesStatus(status) || !replayable(request)) {
      return null;
    }
    Duration asked = retryAfter(retryAfter, now);
    if (asked == null) {
      return backoff(policy, attemptsDone, random);
    }
    return asked.compareTo(policy.maxDelay()) > 0 ? policy.maxDelay() : asked;
  }

  /** Full jitter: uniform in [0, min(max, base × 2^retry)]; a fixed delay as it is. */
  static Duration backoff(RetryPolicy policy, int attemptsDone, DoubleSupplier random) {
    if (policy.isFixedDelay()) {
      return policy.baseDelay();
    }
    long base = policy.baseDelay().toNanos();
    long max = policy.maxDelay().toNanos();
    int shift = Math.min(attemptsDone - 1, 62);
    long bound = base > (max >> shift) ? max : Math.min(max, base << shift);
    return Duration.ofNanos((long) (random.getAsDouble() * bound));
  }

  /**
   * {@code Retry-After} as delay-seconds or an HTTP-date (RFC 9110 §10.2.3); {@code null} if absent,
   * negative, garbled or too large to be meant. A date in the past means now.
   */
  static Duration retryAfter(String value, Instant now) {
    if (value == null || value.isBlank()) {
      return null;
    }
    String v = value.strip();
    if (v.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return v.length() > 12 ? null : Duration.ofSeconds(Long.parseLong(v));
    }
    try {
      Duration d = Duration.between(now, ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
      return d.isNegative() ? Duration.ZERO : d;
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static boolean replayable(Request request) {
    return request.body() == null || request.body().isRepeatable();
  }
}
