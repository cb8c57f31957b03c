package dev.strand.internal.events;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Looks at every open client's {@link ListenerGuard} a few times per {@link ListenerGuard#BLOCKING_NANOS}
 * for a delivery still running past it. A thread of its own, so a delivery is timed without a second
 * clock read per event, and a listener stuck in one is found while it is stuck. A platform thread: a
 * listener that blocks may hold the carriers virtual threads need. It runs only while some guard is
 * watched.
 */
final class ListenerWatchdog {
  static final long PERIOD_NANOS = ListenerGuard.BLOCKING_NANOS / 4;
  private static final Set<ListenerGuard> WATCHED = ConcurrentHashMap.newKeySet();
  private static Thread thread; // guarded by ListenerWatchdog.class

  private ListenerWatchdog() {}

  static void watch(ListenerGuard guard) {
    WATCHED.add(guard);
    synchronized (ListenerWatchdog.class) {
      if (thread == null) {
        thread = Thread.ofPlatform().daemon().name("strand-listener-watchdog").start(ListenerWatchdog::run);
      }
    }
  }

  static void unwatch(ListenerGuard guard) {
    WATCHED.remove(guard);
  }

  private static void run() {
    while (true) {
      LockSupport.parkNanos(PERIOD_NANOS);
      long now = System.nanoTime();
      for (ListenerGuard guard : WATCHED) {
        guard.checkHeld(now);
      }
      synchronized (ListenerWatchdog.class) {
        if (WATCHED.isEmpty()) {
          thread = null; // the next watch starts another
          return;
        }
      }
    }
  }
}
