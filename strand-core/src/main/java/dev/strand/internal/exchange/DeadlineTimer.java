package dev.strand.internal.exchange;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The read and write timeouts of a connection's exchanges, checked lazily: progress on an exchange
 * only stamps the time, and this one timer, when due, asks the connection what is overdue and is
 * re-armed for the earliest deadline left. So the hot path schedules nothing per request (an
 * HTTP/2 connection with a timer per stream kept every finished stream reachable from the event
 * loop's timer queue until its timeout had passed). Confined to the connection's event loop.
 */
public final class DeadlineTimer {
  /** What {@link Check#expire} returns when nothing is left to time. */
  public static final long NONE = Long.MIN_VALUE;

  /** The connection's side: fails what is overdue at {@code now} and returns the next deadline, or {@link #NONE}. */
  @FunctionalInterface
  public interface Check {
    long expire(long now);
  }

  private final EventLoop loop;
  private final Check check;
  private final Runnable task = this::fire;
  private ScheduledFuture<?> scheduled;
  private long at;

  public DeadlineTimer(EventLoop loop, Check check) {
    this.loop = loop;
    this.check = check;
  }

  /** The deadline of a phase that last made progress at {@code progressAt}, or {@link #NONE} if it has no limit. */
  static long deadline(long progressAt, long timeoutNanos) {
    return timeoutNanos <= 0 ? NONE : progressAt + timeoutNanos;
  }

  /** Makes sure the timer fires no later than {@code deadline} (a {@link System#nanoTime} value, or {@link #NONE}). */
  public void armBy(long deadline) {
    if (deadline == NONE || (scheduled != null && deadline - at >= 0)) {
      return;
    }
    if (scheduled != null) {
      scheduled.cancel(false); // rare: a deadline sooner than the armed one
    }
    at = deadline;
    scheduled = loop.schedule(task, Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
  }

  private void fire() {
    scheduled = null;
    armBy(check.expire(System.nanoTime()));
  }
}
