package dev.strand.bench;

import java.util.List;
import java.util.Map;

/**
 * Everything one bench run produced; written as results.json and read back by the tests.
 *
 * @param cells one per client, scenario and level (with {@code --repeat}, the runs combined: {@link Repeats})
 * @param runs  with {@code --repeat}, each run's own cells, in the order the runs were made; else empty
 */
public record Results(Meta meta, List<Cell> cells, List<DefaultsProbe.Defaults> defaults, List<Targets.Verdict> targets,
    Map<String, String> setups, List<List<Cell>> runs) {

  public Results {
    runs = runs == null ? List.of() : runs; // a results.json written before --repeat has none
  }

  /** A run of the matrix made once. */
  public Results(Meta meta, List<Cell> cells, List<DefaultsProbe.Defaults> defaults, List<Targets.Verdict> targets,
      Map<String, String> setups) {
    this(meta, cells, defaults, targets, setups, List.of());
  }

  /** How the run was made. Durations in seconds. */
  public record Meta(String started, String finished, String preset, String machine, String java, String server,
      boolean embeddedServer, List<String> scenarios, List<Integer> concurrency, List<String> clients,
      double warmup, double rewarm, double duration, int batches, double timeout, int repeats, List<String> notes) {}

  public List<Cell> scenario(String s) {
    return cells.stream().filter(c -> c.scenario().equals(s)).toList();
  }

  public Cell find(String client, String scenario, int concurrency) {
    return find(cells, client, scenario, concurrency);
  }

  /** The cell of {@code client} on {@code scenario} at {@code concurrency} in {@code cells} (one run's, say), or null. */
  static Cell find(List<Cell> cells, String client, String scenario, int concurrency) {
    return cells.stream()
        .filter(c -> c.client().equals(client) && c.scenario().equals(scenario) && c.concurrency() == concurrency)
        .findFirst().orElse(null);
  }

  /** Delay in seconds of a {@code /delay/MS} scenario, or -1 for any other. */
  public static double delaySeconds(String scenario) {
    String path = Scenario.of(scenario).path();
    if (path.startsWith("/delay/")) {
      try {
        return Long.parseLong(path.substring("/delay/".length())) / 1000.0;
      } catch (NumberFormatException e) {
        return -1;
      }
    }
    return -1;
  }
}
