package dev.strand.internal.retry;

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
 * Every decision to send a request again, in one place, as pure steps. Two kinds:
 * <ul>
 *   <li>the user's {@link RetryPolicy} (the client's {@code RetryLink} asks): given what the last attempt
 *       ended with, the wait before the next one, or {@code null} for none; the clock and the randomness are
 *       passed in;
 *   <li>the resends every transport makes without a policy (the exchange asks): after a pooled connection
 *       turned out stale, and after the server said it did not process the request.
 * </ul>
 * Both go by the same rules: {@link Request#isIdempotent()} for whether a request may arrive twice,
 * {@link TransportException#mayHaveReachedServer()} and {@link TransportException#isRetryable()} for what a
 * failure says, a body that cannot be replayed is never sent again, and each kind of resend has its limit.
 */
public final class RetryRules {
  /**
   * Resends after a reused connection failed before any response byte (the server closed it as it was taken):
   * one, as OkHttp and the JDK client make; a second failure is the server's answer, not a race.
   */
  public static final int STALE_CONNECTION_RESENDS = 1;
  /**
   * Resends of a request the server provably never processed (above an HTTP/2 GOAWAY's last stream, or a
   * refused stream): a few, since each says nothing about the request, but not forever against a server that
   * refuses everything.
   */
  public static final int UNPROCESSED_RESENDS = 3;

  private RetryRules() {}

  /**
   * Whether a request whose reused connection failed before any response byte may be sent again on a new
   * one, after {@code resendsDone} such resends: only an idempotent request, since the server may have read
   * it before closing.
   */
  public static boolean afterStaleConnection(Request request, int resendsDone) {
    return resendsDone < STALE_CONNECTION_RESENDS && request.isIdempotent() && replayable(request);
  }

  /**
   * Whether a request the server provably did not process may be sent again, after {@code resendsDone} such
   * resends: whatever its method, since it was not acted on.
   */
  public static boolean afterUnprocessed(Request request, int resendsDone) {
    return resendsDone < UNPROCESSED_RESENDS && replayable(request);
  }

  /** The wait before retrying after {@code failure}, or {@code null}. */
  public static Duration afterFailure(RetryPolicy policy, Request request, Throwable failure, int attemptsDone,
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
  public static Duration afterStatus(RetryPolicy policy, Request request, int status, String retryAfter, int attemptsDone,
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
  public static Duration backoff(RetryPolicy policy, int attemptsDone, DoubleSupplier random) {
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
  public static Duration retryAfter(String value, Instant now) {
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
