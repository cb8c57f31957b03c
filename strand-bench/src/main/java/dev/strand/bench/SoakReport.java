package dev.strand.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The soak's section of report.md: outcomes per phase, faults injected, the pool afterwards, memory first vs last. */
final class SoakReport {
  private SoakReport() {
  }

  static String markdown(Soak.Plan plan, String machine, String loadAtEnd, String proxy, List<SoakPhase> phases,
      String failure) {
    StringBuilder s = new StringBuilder("# Strand soak\n\n");
    s.append("Machine: ").append(machine).append("; load average at the end ").append(loadAtEnd).append(".\n\n");
    s.append(String.format(Locale.ROOT, "Plan: %,d GETs of `/echo?id=N` per phase, %d in flight, at most %d s per "
        + "phase. Client: Strand's defaults (timeouts 5 s) with `Limits.ofConnections(%d)`, a new client per phase, "
        + "in its own JVM (%s). Phase `faults` goes through the testkit FaultProxy (per response chunk: reset %s, "
        + "delay %s up to %d ms, truncate %s, stray bytes %s; per request: early close %s; seed %d).%n%n",
        plan.requests(), plan.inFlight(), plan.phaseSeconds(), plan.inFlight(), Soak.CLIENT_HEAP, Soak.RESET,
        Soak.DELAY, Soak.DELAY_MAX_MILLIS, Soak.TRUNCATE, Soak.STRAY_BYTES, Soak.EARLY_CLOSE, Soak.SEED));
    if (failure != null) {
      s.append("**Soak incomplete:** ").append(failure).append("\n\n");
    }
    s.append("| phase | sent | own body | typed failures | unexplained | req/s | s | after: in use / pending / open "
        + "| connections opened | verdict |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (SoakPhase p : phases) {
      s.append(String.format(Locale.ROOT, "| %s | %,d%s | %,d | %,d | %,d | %,.0f | %.1f | %d / %d / %d | %,d | %s |%n",
          p.phase(), p.sent(), p.stoppedByTime() ? " (time bound)" : "", p.ok(), p.failureCount(),
          p.unexplainedCount(), p.rps(), p.seconds(), p.inUse(), p.pending(), p.open(), p.connectionsOpened(),
          p.clean() ? "clean" : "NOT CLEAN"));
    }
    s.append("\n");
    for (SoakPhase p : phases) {
      s.append("- `").append(p.phase()).append("` typed failures: ").append(counts(p.failures()))
          .append("; unexplained: ").append(counts(p.unexplained()));
      if (!p.injected().isEmpty()) {
        s.append("; faults injected: ").append(counts(p.injected()));
      }
      s.append("\n");
      for (String e : p.examples()) {
        s.append("  - e.g. ").append(e.replace("|", "\\|").replace("\n", " ")).append("\n");
      }
    }
    s.append("\nMemory of the client JVM, sampled every second: mean of the first → the last window (a minute, or "
        + "half the phase when shorter), MiB.\n\n| phase | window | samples |");
    for (String metric : MemorySampler.METRICS.keySet()) {
      s.append(' ').append(metric).append(" |");
    }
    s.append("\n|---|---|---|").append("---|".repeat(MemorySampler.METRICS.size())).append("\n");
    for (SoakPhase p : phases) {
      MemorySampler.Window w = p.memory();
      s.append(String.format(Locale.ROOT, "| %s | %d s | %d |", p.phase(), w.windowSeconds(), w.samples()));
      for (MemorySampler.FirstLast m : w.metrics().values()) {
        s.append(' ').append(pair(m.firstMiB(), m.lastMiB())).append(" |");
      }
      s.append("\n");
    }
    boolean clean = failure == null && phases.stream().allMatch(SoakPhase::clean);
    s.append("\n").append(clean ? "Soak: clean (no unexplained outcome, pool idle after each phase).\n"
        : "Soak: NOT CLEAN (see unexplained outcomes and the pool counters above).\n");
    s.append("\nFault proxy at the end: ").append(proxy).append("\n");
    return s.toString();
  }

  private static String counts(Map<String, Long> m) {
    return m.isEmpty() ? "none" : m.toString().replaceAll("[{}]", "");
  }

  private static String pair(double first, double last) {
    return first < 0 ? "n/a" : String.format(Locale.ROOT, "%.1f → %.1f", first, last);
  }
}
