package dev.strand.internal.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.EventListener;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A listener moved off-thread that falls too far behind loses the newest events, counted, not the heap. */
class ListenerGuardTest {
  @Test
  void aListenerTooFarBehindDropsTheNewestEventsAndCountsThem() throws Exception {
    CountDownLatch gate = new CountDownLatch(1);
    AtomicInteger delivered = new AtomicInteger();
    ListenerGuard guard = new ListenerGuard(new EventListener() { });
    // The first event holds the caller's thread past the limit: from then on events queue.
    guard.deliver(System.nanoTime(), l -> sleep(ListenerGuard.BLOCKING_NANOS / 1_000_000 + 50));
    guard.deliver(System.nanoTime(), l -> {
      await(gate);
      delivered.incrementAndGet();
    });
    int extra = 1_000;
    for (int i = 0; i < ListenerGuard.MAX_QUEUED + extra; i++) {
      guard.deliver(System.nanoTime(), l -> delivered.incrementAndGet());
    }
    // One queued slot is the blocked event's; everything past the limit was dropped.
    assertEquals(extra + 1, guard.dropped());
    gate.countDown();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (delivered.get() < ListenerGuard.MAX_QUEUED && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertEquals(ListenerGuard.MAX_QUEUED, delivered.get());
    assertTrue(guard.dropped() > 0);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
