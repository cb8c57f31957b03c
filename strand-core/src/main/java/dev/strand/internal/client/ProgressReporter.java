package dev.strand.internal.client;

import dev.strand.ProgressListener;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Delivers counts to a {@link ProgressListener} on a virtual thread, serially and coalesced: {@link #report}
 * only stores the latest count (any thread, never blocks), and a drain started when none runs delivers it.
 * {@link #flush} completes once everything reported so far has been delivered.
 */
final class ProgressReporter {
  private record Progress(long bytes, long total) {}

  private final ProgressListener listener;
  private final AtomicReference<Progress> latest = new AtomicReference<>();
  /** Reports not yet seen by a drain; a drain runs while it is above zero. */
  private final AtomicInteger pending = new AtomicInteger();
  /** Written by the drain only (one at a time). */
  private Progress delivered;
  /** Guarded by {@code this}, with the last decrement of {@link #pending}. */
  private CompletableFuture<Void> idle;

  ProgressReporter(ProgressListener listener) {
    this.listener = listener;
  }

  void report(long bytes, long total) {
    latest.set(new Progress(bytes, total));
    if (pending.getAndIncrement() == 0) {
      Thread.ofVirtual().name("strand-progress").start(this::drain);
    }
  }

  private void drain() {
    int missed = 1;
    while (true) {
      Progress p = latest.get();
      if (!p.equals(delivered)) {
        delivered = p;
        try {
          listener.onProgress(p.bytes(), p.total());
        } catch (RuntimeException ignored) {
          // A progress display must not break the transfer it displays.
        }
      }
      CompletableFuture<Void> done = null;
      synchronized (this) {
        missed = pending.addAndGet(-missed);
        if (missed == 0) {
          done = idle;
          idle = null;
        }
      }
      if (missed == 0) {
        if (done != null) {
          done.complete(null);
        }
        return;
      }
    }
  }

  /** Completes once every count reported so far has been delivered (at once if there is none in flight). */
  CompletableFuture<Void> flush() {
    synchronized (this) {
      if (pending.get() == 0) {
        return CompletableFuture.completedFuture(null);
      }
      if (idle == null) {
        idle = new CompletableFuture<>();
      }
      return idle;
    }
  }
}
