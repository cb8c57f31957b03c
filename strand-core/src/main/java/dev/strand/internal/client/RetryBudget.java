package dev.strand.internal.client;

import java.util.function.LongSupplier;

/**
 * A client's allowance of retries over the last {@value #WINDOW_SECONDS} seconds: {@code ratio} of the
 * calls seen, plus {@code minPerSecond} per second. Counts live in one bucket per second, reused as the
 * window slides; the clock is passed in, so tests set exact times.
 */
final class RetryBudget {
  static final int WINDOW_SECONDS = 10;

  private final double ratio;
  private final int minPerSecond;
  private final LongSupplier nanoClock;
  private final long[] second = new long[WINDOW_SECONDS];
  private final long[] calls = new long[WINDOW_SECONDS];
  private final long[] retries = new long[WINDOW_SECONDS];

  RetryBudget(double ratio, int minPerSecond, LongSupplier nanoClock) {
    this.ratio = ratio;
    this.minPerSecond = minPerSecond;
    this.nanoClock = nanoClock;
    java.util.Arrays.fill(second, Long.MIN_VALUE);
  }

  /** Counts a call that may retry. */
  synchronized void recordCall() {
    calls[bucket(nanoClock.getAsLong() / 1_000_000_000L)]++;
  }

  /** Takes one retry from the budget, or says there is none left. */
  synchronized boolean tryRetry() {
    long now = nanoClock.getAsLong() / 1_000_000_000L;
    int current = bucket(now);
    long callSum = 0;
    long retrySum = 0;
    for (int i = 0; i < WINDOW_SECONDS; i++) {
      if (second[i] > now - WINDOW_SECONDS) {
        callSum += calls[i];
        retrySum += retries[i];
      }
    }
    double allowed = ratio * callSum + (double) minPerSecond * WINDOW_SECONDS;
    if (retrySum + 1 > allowed) {
      return false;
    }
    retries[current]++;
    return true;
  }

  /** The bucket of {@code now}, emptied first if it last counted an older second. */
  private int bucket(long now) {
    int i = (int) Math.floorMod(now, (long) WINDOW_SECONDS);
    if (second[i] != now) {
      second[i] = now;
      calls[i] = 0;
      retries[i] = 0;
    }
    return i;
  }
}
