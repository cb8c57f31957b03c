package dev.strand;

import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * When and how a failed request is tried again: set on the client ({@link Client.Builder#retry}) and
 * per request ({@link Request.Builder#retry}). Immutable.
 *
 * <p>A request is retried, up to {@link #maxAttempts()} attempts in all:
 * <ul>
 *   <li>after a failure before any connection carried the request ({@link ConnectException},
 *       {@link ConnectTimeoutException}: {@link TransportException#mayHaveReachedServer()} is false),
 *       whatever its method, since nothing was sent;
 *   <li>after a response whose status is one of {@link #retryStatuses()} (429 and 503 by default: the
 *       server says it did not process the request), whatever its method; the response is read and
 *       dropped, and its {@code Retry-After} (delay-seconds or an HTTP-date) sets the wait, capped at
 *       {@link #maxDelay()} (a negative or garbled value is ignored). The last attempt's response is
 *       returned as it is;
 *   <li>after a failure once the request may have reached the server (the connection was reset, a
 *       {@link ReadTimeoutException} or {@link WriteTimeoutException}), only if the request is
 *       idempotent: GET, HEAD, OPTIONS, TRACE, PUT, DELETE or QUERY, or any method carrying an
 *       {@code Idempotency-Key} header, or any method with {@link Builder#retryNonIdempotent(boolean)}.
 * </ul>
 * A request whose body cannot be replayed ({@link RequestBody#isRepeatable()} false) is never retried;
 * nor are failures that {@linkplain TransportException#isRetryable() would come again}: TLS failures,
 * protocol errors, a full pool ({@link PoolTimeoutException}) or the call's own deadline. Between attempts the client waits a random time between zero and
 * {@code min(maxDelay, baseDelay × 2^retry)} ("full jitter"), unless a {@link Builder#fixedDelay fixed
 * delay} is set; a wait that would pass the call's deadline ({@link Timeout#call()}) is not started.
 *
 * <p>Retries are budgeted per client ({@link Client.Builder#retryBudget}): by default they may add at most
 * 20 % to the calls of the last 10 seconds, plus 10 per second so that a quiet client can still retry, so a
 * failing server does not receive a storm. When the budget is spent a failure is
 * reported at once. The failure a call ends with carries the earlier attempts' failures as
 * {@linkplain Throwable#getSuppressed() suppressed} exceptions.
 *
 * <p>A client retries nothing by default ({@link #none()}), as curl, requests and httpx do: a call's
 * time stays what its timeouts say and a POST is sent once. A request that never left (its pooled
 * connection turned out to be closed before it was written) is always replayed on a fresh connection,
 * by any transport, with or without a policy.
 *
 * {@snippet :
 * Client client = Client.builder()
 *     .retry(RetryPolicy.builder().maxAttempts(4).backoff(Duration.ofMillis(200), Duration.ofSeconds(5)).build())
 *     .build();
 * }
 */
public final class RetryPolicy {
  private static final RetryPolicy NONE = builder().maxAttempts(1).build();
  private static final RetryPolicy DEFAULTS = builder().build();

  private final int maxAttempts;
  private final Duration baseDelay;
  private final Duration maxDelay;
  private final boolean fixed;
  private final int[] retryStatuses;
  private final boolean retryNonIdempotent;
  private final Consumer<Retry> onRetry;

  private RetryPolicy(Builder b) {
    this.maxAttempts = b.maxAttempts;
    this.baseDelay = b.baseDelay;
    this.maxDelay = b.maxDelay;
    this.fixed = b.fixed;
    this.retryStatuses = b.retryStatuses.clone();
    this.retryNonIdempotent = b.retryNonIdempotent;
    this.onRetry = b.onRetry;
  }

  /** No retries: one attempt. The client's default. */
  public static RetryPolicy none() {
    return NONE;
  }

  /**
   * The recommended policy: 3 attempts, back-off from 100 ms up to 10 s with full jitter, 429 and 503
   * retried, non-idempotent requests only when nothing was sent.
   */
  public static RetryPolicy defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.maxAttempts = maxAttempts;
    b.baseDelay = baseDelay;
    b.maxDelay = maxDelay;
    b.fixed = fixed;
    b.retryStatuses = retryStatuses.clone();
    b.retryNonIdempotent = retryNonIdempotent;
    b.onRetry = onRetry;
    return b;
  }

  /** Attempts in all, the first included; 1 means no retries. */
  public int maxAttempts() {
    return maxAttempts;
  }

  /** The first back-off bound (or the fixed delay); later bounds double up to {@link #maxDelay()}. */
  public Duration baseDelay() {
    return baseDelay;
  }

  /** The longest wait between attempts, {@code Retry-After} included. */
  public Duration maxDelay() {
    return maxDelay;
  }

  /** Whether every back-off wait is exactly {@link #baseDelay()}, with neither growth nor jitter. */
  public boolean isFixedDelay() {
    return fixed;
  }

  /** The response statuses that are retried (a copy). */
  public int[] retryStatuses() {
    return retryStatuses.clone();
  }

  /** Whether {@code status} is one of {@link #retryStatuses()}. */
  public boolean retriesStatus(int status) {
    for (int s : retryStatuses) {
      if (s == status) {
        return true;
      }
    }
    return false;
  }

  /** Whether requests of any method are retried after failures that may have reached the server. */
  public boolean retryNonIdempotent() {
    return retryNonIdempotent;
  }

  /** The listener told of each retry before its wait, or {@code null}. */
  public Consumer<Retry> onRetry() {
    return onRetry;
  }

  @Override
  public String toString() {
    return "RetryPolicy[maxAttempts=" + maxAttempts + (fixed ? ", fixedDelay=" + baseDelay
        : ", backoff=" + baseDelay + ".." + maxDelay) + ", statuses=" + Arrays.toString(retryStatuses)
        + ", nonIdempotent=" + retryNonIdempotent + "]";
  }

  /**
   * One retry about to happen, as {@link Builder#onRetry} sees it: the request, the attempt that comes
   * next (2 for the first retry), the wait before it, and what the previous attempt ended with — a
   * failure or a response head (the other is {@code null}).
   */
  public record Retry(Request request, int nextAttempt, Duration delay, HttpException failure, ResponseHead response) {
    /** What made the previous attempt fail, for a log line: {@code "HTTP 503"} or the failure's message. */
    public String reason() {
      return failure != null ? failure.getMessage() : "HTTP " + response.status();
    }
  }

  /** Collects a {@link RetryPolicy}; starts from {@link #defaults()}. */
  public static final class Builder {
    private int maxAttempts = 3;
    private Duration baseDelay = Duration.ofMillis(100);
    private Duration maxDelay = Duration.ofSeconds(10);
    private boolean fixed;
    private int[] retryStatuses = {429, 503};
    private boolean retryNonIdempotent;
    private Consumer<Retry> onRetry;

    private Builder() {}

    /** Attempts in all, the first included (default 3); 1 turns retries off. */
    public Builder maxAttempts(int attempts) {
      if (attempts < 1) {
        throw new IllegalArgumentException("maxAttempts must be >= 1: " + attempts);
      }
      this.maxAttempts = attempts;
      return this;
    }

    /** Exponential back-off with full jitter from {@code base} up to {@code max} (default 100 ms to 10 s). */
    public Builder backoff(Duration base, Duration max) {
      requirePositive(base, "base");
      requirePositive(max, "max");
      if (base.compareTo(max) > 0) {
        throw new IllegalArgumentException("backoff base " + base + " exceeds max " + max);
      }
      this.baseDelay = base;
      this.maxDelay = max;
      this.fixed = false;
      return this;
    }

    /**
     * The same wait before every retry, with neither growth nor jitter (curl's {@code --retry-delay}).
     * A {@code Retry-After} still sets the wait, up to {@link #maxDelay(Duration)}.
     */
    public Builder fixedDelay(Duration delay) {
      Objects.requireNonNull(delay, "delay");
      if (delay.isNegative()) {
        throw new IllegalArgumentException("fixedDelay must not be negative: " + delay);
      }
      this.baseDelay = delay;
      if (maxDelay.compareTo(delay) < 0) {
        this.maxDelay = delay;
      }
      this.fixed = true;
      return this;
    }

    /** The longest wait, back-off and {@code Retry-After} alike (default 10 s). */
    public Builder maxDelay(Duration max) {
      requirePositive(max, "max");
      if (!fixed && baseDelay.compareTo(max) > 0) {
        throw new IllegalArgumentException("maxDelay " + max + " is below the back-off base " + baseDelay);
      }
      this.maxDelay = max;
      return this;
    }

    /** The response statuses to retry (default 429 and 503); none turns status retries off. */
    public Builder retryStatuses(int... statuses) {
      for (int s : statuses) {
        if (s < 100 || s > 999) {
          throw new IllegalArgumentException("not a status code: " + s);
        }
      }
      this.retryStatuses = statuses.clone();
      return this;
    }

    /**
     * Retry requests of any method after failures that may have reached the server (default false).
     * Only for servers that deduplicate; prefer an {@code Idempotency-Key} header on the request.
     */
    public Builder retryNonIdempotent(boolean retry) {
      this.retryNonIdempotent = retry;
      return this;
    }

    /** Told of each retry before its wait, on whatever thread decided it; must not block. A listener that throws is ignored. */
    public Builder onRetry(Consumer<Retry> listener) {
      this.onRetry = listener;
      return this;
    }

    public RetryPolicy build() {
      return new RetryPolicy(this);
    }

    private static void requirePositive(Duration d, String name) {
      Objects.requireNonNull(d, name);
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("backoff " + name + " must be positive: " + d);
      }
    }
  }
}
