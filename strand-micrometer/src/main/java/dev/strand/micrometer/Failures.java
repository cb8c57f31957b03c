package dev.strand.micrometer;

import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Failures of the instrumentation itself (a meter registry, an observation handler or a uri template
 * that threw): counted, the first one logged, never passed on to the call being measured.
 */
final class Failures {
  private static final System.Logger LOG = System.getLogger("dev.strand.micrometer");

  private final AtomicLong count = new AtomicLong();

  void record(String what, RuntimeException e) {
    if (count.getAndIncrement() == 0) {
      LOG.log(Level.WARNING, what + " threw; the call goes on unmeasured (logged once, counted after)", e);
    }
  }

  long count() {
    return count.get();
  }
}
