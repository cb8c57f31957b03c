package dev.strand.internal.client;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The one timer thread of the request pipeline, for call deadlines and retry waits: daemon, created
 * on first use (a client that sets neither never starts it), cancelled tasks removed at once.
 */
final class Timers {
  private static final class Holder {
    static final ScheduledThreadPoolExecutor TIMER = create();

    private static ScheduledThreadPoolExecutor create() {
      ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
        Thread thread = new Thread(r, "strand-timer");
        thread.setDaemon(true);
        return thread;
      });
      t.setRemoveOnCancelPolicy(true);
      return t;
    }
  }

  private Timers() {}

  static ScheduledFuture<?> schedule(Duration delay, Runnable task) {
    return Holder.TIMER.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
  }
}
