package dev.strand.internal.events;

import dev.strand.EventListener;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A client's {@link EventListener}, kept from harming its calls. Events are delivered on the thread the
 * step happened on, often an I/O thread, because that costs nothing. A listener that throws is logged
 * once and its failures ignored. A listener that holds the thread longer than {@link #BLOCKING_NANOS} is
 * logged once and from then on gets its events on a thread of its own, in the order they happened, so it
 * can no longer stall the connections that share that I/O thread; when it falls more than
 * {@link #MAX_QUEUED} events behind, newer events are dropped (and counted) rather than held in memory.
 */
public final class ListenerGuard {
  /** Longer than any listener that merely logs or records a metric takes; long enough to stall other calls. */
  static final long BLOCKING_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  static final int MAX_QUEUED = 65_536;
  private static final System.Logger LOG = System.getLogger("dev.strand");

  private final EventListener listener;
  private final AtomicBoolean thrown = new AtomicBoolean();
  /** Set once the listener has held a thread too long: its events go through the queue from then on. */
  private final AtomicBoolean offThread = new AtomicBoolean();
  private final ConcurrentLinkedQueue<Consumer<EventListener>> queue = new ConcurrentLinkedQueue<>();
  private final AtomicInteger queued = new AtomicInteger();
  private final AtomicLong dropped = new AtomicLong();

  public ListenerGuard(EventListener listener) {
    this.listener = listener;
  }

  /** Events dropped because the listener, moved off-thread, fell too far behind. */
  long dropped() {
    return dropped.get();
  }

  /** Delivers {@code event}, which happened at {@code nanos} (the time it holds the thread is measured from then). */
  void deliver(long nanos, Consumer<EventListener> event) {
    if (offThread.get()) {
      enqueue(event);
      return;
    }
    call(event);
    long took = System.nanoTime() - nanos;
    if (took > BLOCKING_NANOS && offThread.compareAndSet(false, true)) {
      LOG.log(System.Logger.Level.WARNING, () -> "event listener " + listener + " held a thread for "
          + TimeUnit.NANOSECONDS.toMillis(took) + " ms; its events are delivered on a thread of its own from now on");
    }
  }

  private void call(Consumer<EventListener> event) {
    try {
      event.accept(listener);
    } catch (RuntimeException | LinkageError e) {
      if (thrown.compareAndSet(false, true)) {
        LOG.log(System.Logger.Level.WARNING, "event listener " + listener + " threw; its failures are ignored from now on", e);
      }
    }
  }

  private void enqueue(Consumer<EventListener> event) {
    if (queued.get() >= MAX_QUEUED) {
      if (dropped.getAndIncrement() == 0) {
        LOG.log(System.Logger.Level.WARNING, () -> "event listener " + listener + " fell " + MAX_QUEUED
            + " events behind; newer events are dropped while it catches up");
      }
      return;
    }
    queue.add(event);
    // The thread that takes the count from 0 starts the drainer; it runs until it has emptied the queue.
    if (queued.getAndIncrement() == 0) {
      Thread.ofVirtual().name("strand-event-listener").start(this::drain);
    }
  }

  private void drain() {
    // An event is counted only after it was added, so each count this loop takes has its event queued.
    do {
      call(queue.poll());
    } while (queued.decrementAndGet() > 0);
  }
}
