package dev.strand.internal.client;

import java.util.function.LongSupplier;

/**
 * A token bucket for {@link dev.strand.Request.Builder#maxBytesPerSecond}: bytes are paid for at the rate, with a
 * bucket of a tenth of a second's worth, so a pause does not save up for a burst longer than that. Plain code
 * with the clock passed in: {@link #reserve} says how long to wait, the caller waits (a virtual thread, or the
 * caller's own reading thread; never an event loop).
 */
final class Throttle {
  private final long bytesPerSecond;
  private final long bucketNanos = 100_000_000L;
  private final LongSupplier nanoClock;
  /** When the bytes reserved so far are paid for; guarded by {@code this}. */
  private long paidUntil;
  private boolean started;

  Throttle(long bytesPerSecond, LongSupplier nanoClock) {
    this.bytesPerSecond = bytesPerSecond;
    this.nanoClock = nanoClock;
  }

  /** Reserves {@code n} bytes at {@code now}; returns the nanoseconds to wait before passing them on. */
  synchronized long reserve(long n, long now) {
    long earliest = now - bucketNanos;
    long from = !started || paidUntil - earliest < 0 ? earliest : paidUntil;
    started = true;
    paidUntil = from + (long) (n * 1_000_000_000.0 / bytesPerSecond);
    return Math.max(0, paidUntil - now);
  }

  /** Reserves {@code n} bytes and sleeps until they are paid for. */
  void acquire(long n) throws InterruptedException {
    long wait = reserve(n, nanoClock.getAsLong());
    if (wait > 0) {
      Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
    }
  }
}
