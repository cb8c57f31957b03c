package dev.strand.internal.events;

import dev.strand.EventListener;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;

/**
 * A client's {@link EventListener}, kept from harming its calls. Events are delivered on the thread the
 * step happened on, often an I/O thread, because that costs nothing. A listener that throws is logged
 * once and its failures ignored. A listener that holds a thread longer than {@link #BLOCKING_NANOS} is
 * logged once and from then on gets its events on a thread of its own, in the order they happened, so it
 * can no longer stall the connections that share that I/O thread; when it falls more than
 * {@link #MAX_QUEUED} events behind, newer events are dropped (and counted) rather than held in memory.
 *
 * <p>A delivery is timed by the {@link ListenerWatchdog}, which sees it begin in a slot of its thread and
 * finds it still there: a clock read after each event cost 25–50 ns on a virtual machine, a third of what
 * a listener that does nothing cost a call. Slots are per thread id modulo {@link #SLOTS}; two threads in
 * one slot can hide each other's stall, which matters little, since the event-loop threads a stall harms
 * have neighbouring ids.
 */
public final class ListenerGuard {
  /** Longer than any listener that merely logs or records a metric takes; long enough to stall other calls. */
  static final long BLOCKING_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  static final int MAX_QUEUED = 65_536;
  static final int SLOTS = 64;
  /** Slots a cache line apart, so threads marking theirs do not contend. */
  private static final int STRIDE = 8;
  private static final long IDLE = Long.MIN_VALUE;
  private static final System.Logger LOG = System.getLogger("dev.strand");

  private final EventListener listener;
  private final AtomicBoolean thrown = new AtomicBoolean();
  /** Set once the listener has held a thread too long: its events go through the queue from then on. */
  private final AtomicBoolean offThread = new AtomicBoolean();
  private final ConcurrentLinkedQueue<Consumer<EventListener>> queue = new ConcurrentLinkedQueue<>();
  private final AtomicInteger queued = new AtomicInteger();
  private final AtomicLong dropped = new AtomicLong();
  /** When the delivery on each slot's thread began, or {@link #IDLE}. */
  private final AtomicLongArray busySince = new AtomicLongArray(SLOTS * STRIDE);

  /** Starts watching the listener; {@link #close} stops. */
  public ListenerGuard(EventListener listener) {
    this.listener = listener;
    for (int i = 0; i < SLOTS; i++) {
      busySince.set(i * STRIDE, IDLE);
    }
    ListenerWatchdog.watch(this);
  }

  /** The client is closed: nothing to watch any more. */
  public void close() {
    ListenerWatchdog.unwatch(this);
  }

  /** Events dropped because the listener, moved off-thread, fell too far behind. */
  long dropped() {
    return dropped.get();
  }

  /** Delivers {@code event}, which happened at {@code nanos} (the time it holds the thread is counted from then). */
  void deliver(long nanos, Consumer<EventListener> event) {
    if (offThread.get()) {
      enqueue(event);
      return;
    }
    int slot = ((int) Thread.currentThread().threadId() & (SLOTS - 1)) * STRIDE;
    busySince.setOpaque(slot, nanos);
    call(event);
    busySince.setOpaque(slot, IDLE);
  }

  /** The watchdog's look at {@code now}: a delivery that has held its thread too long moves the listener off. */
  void checkHeld(long now) {
    for (int slot = 0; slot < SLOTS * STRIDE && !offThread.get(); slot += STRIDE) {
      long since = busySince.getOpaque(slot);
      if (since != IDLE && now - since > BLOCKING_NANOS && offThread.compareAndSet(false, true)) {
        LOG.log(System.Logger.Level.WARNING, () -> "event listener " + listener + " held a thread for "
            + TimeUnit.NANOSECONDS.toMillis(now - since) + " ms; its events are delivered on a thread of its own from now on");
      }
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
