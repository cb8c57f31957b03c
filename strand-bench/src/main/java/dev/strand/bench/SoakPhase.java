package dev.strand.bench;

import java.util.List;
import java.util.Map;

/**
 * What one soak phase did: requests, how each ended, the pool afterwards, and memory over the phase.
 *
 * @param phase       {@code direct} (the bench server) or {@code faults} (through the fault proxy)
 * @param sent        requests issued (fewer than {@code requested} only when the time bound stopped the phase)
 * @param ok          responses that carried their own request's id
 * @param failures    typed Strand failures ({@code HttpException} subtypes) by class: expected through faults
 * @param unexplained anything else: a wrong body (another request's, or garbage), a non-Strand exception, or a
 *                    call with no outcome by the hang bound
 * @param examples    a few unexplained outcomes, described
 * @param inUse       connections in use once the calls ended (must be 0)
 * @param pending     requests waiting for a connection once the calls ended (must be 0)
 * @param injected    faults the proxy injected, by kind (empty for {@code direct})
 */
public record SoakPhase(String phase, String url, long requested, long sent, long ok, double seconds,
    boolean stoppedByTime, Map<String, Long> failures, Map<String, Long> unexplained, List<String> examples,
    int inUse, int pending, int open, long connectionsOpened, MemorySampler.Window memory,
    Map<String, Long> injected) {

  public double rps() {
    return seconds <= 0 ? 0 : sent / seconds;
  }

  public long failureCount() {
    return failures.values().stream().mapToLong(Long::longValue).sum();
  }

  public long unexplainedCount() {
    return unexplained.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Passed: nothing unexplained, the pool idle again. */
  public boolean clean() {
    return unexplainedCount() == 0 && inUse == 0 && pending == 0;
  }

  SoakPhase withInjected(Map<String, Long> faults) {
    return new SoakPhase(phase, url, requested, sent, ok, seconds, stoppedByTime, failures, unexplained, examples,
        inUse, pending, open, connectionsOpened, memory, Map.copyOf(faults));
  }
}
