package dev.strand.opentelemetry;

import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Failures of the telemetry itself (a propagator or span processor that threw): counted, the first one
 * logged, never passed on to the request being traced.
 */
final class Failures {
  private static final System.Logger LOG = System.getLogger("dev.strand.opentelemetry");

  private final AtomicLong count = new AtomicLong();

  void record(String what, RuntimeException e) {
    if (count.getAndIncrement() == 0) {
      LOG.log(Level.WARNING, what + " threw; the request goes on untraced (logged once, counted after)", e);
    }
  }

  long count() {
    return count.get();
  }
}
