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
    // The first event holds the caller's thread well past the limit, long enough for the watchdog to
    // look on a busy machine: from then on events queue.
    guard.deliver(System.nanoTime(), l -> sleep(ListenerGuard.BLOCKING_NANOS / 1_000_000 + 400));
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
    guard.close();
  }

  @Test
  void aListenerStuckInAnEventIsFoundWhileStuckAndLaterEventsGoAround() throws Exception {
    CountDownLatch stuck = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ListenerGuard guard = new ListenerGuard(new EventListener() { });
    try {
      Thread holder = Thread.ofPlatform().start(() -> guard.deliver(System.nanoTime(), l -> {
        stuck.countDown();
        await(release); // never returns on its own: only a watchdog can see this one
      }));
      stuck.await();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      AtomicInteger later = new AtomicInteger();
      Thread caller = Thread.currentThread();
      // Events on this thread run inline until the watchdog has seen the stuck one, then on the guard's own thread.
      while (System.nanoTime() < deadline) {
        CountDownLatch ran = new CountDownLatch(1);
        guard.deliver(System.nanoTime(), l -> {
          if (Thread.currentThread() != caller) {
            later.incrementAndGet();
          }
          ran.countDown();
        });
        ran.await();
        if (later.get() > 0) {
          break;
        }
        Thread.sleep(5);
      }
      assertEquals(1, later.get(), "moved off the caller's thread while the other delivery was still stuck");
      assertTrue(holder.isAlive(), "the stuck delivery had not returned");
      release.countDown();
      holder.join();
    } finally {
      release.countDown();
      guard.close();
    }
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
