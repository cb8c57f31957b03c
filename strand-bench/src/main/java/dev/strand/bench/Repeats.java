package dev.strand.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The matrix run several times ({@code --repeat K}), each client in a fresh JVM each time, the clients' order
 * reversed every other run. On this VM one cell moves by ±20–30 % from one JVM to the next (JIT decisions,
 * scheduling), so a difference smaller than that shows only as the median of several runs. Each reported
 * cell is then the median over the runs of each run's median, its range the spread of those medians; a
 * variant is compared with plain {@code strand} run by run (the two JVMs of one run share its conditions)
 * and the median of those paired ratios reported.
 */
final class Repeats {
  private Repeats() {
  }

  /** One cell per client, scenario and level, in the first run's order. */
  static List<Cell> combine(List<List<Cell>> runs) {
    Map<String, List<Cell>> byKey = new LinkedHashMap<>();
    for (List<Cell> run : runs) {
      for (Cell c : run) {
        byKey.computeIfAbsent(key(c.client(), c.scenario(), c.concurrency()), k -> new ArrayList<>()).add(c);
      }
    }
    return byKey.values().stream().map(Repeats::oneCell).toList();
  }

  /**
   * The runs of one cell as one: medians of req/s, CPU and latency, req/s range over the runs (the runs'
   * medians are its {@code batchRps}), requests and errors summed. A run that failed fails the cell, saying which.
   */
  static Cell oneCell(List<Cell> same) {
    Cell first = same.get(0);
    if (same.size() == 1) {
      return first;
    }
    for (int i = 0; i < same.size(); i++) {
      Cell c = same.get(i);
      if (!c.measured()) {
        String error = c.notApplicable() ? c.error() : "run " + (i + 1) + " of " + same.size() + ": " + c.error();
        return new Cell(c.client(), c.kind(), c.scenario(), c.concurrency(), c.status(), error, List.of(), null,
            null, null, sum(same, Cell::requests), sum(same, Cell::errors), null, null, null, null, c.connections(),
            null);
      }
    }
    List<Double> rps = same.stream().map(Cell::rps).toList();
    long errors = sum(same, Cell::errors);
    Long connections = same.stream().map(Cell::connections).filter(Objects::nonNull)
        .max(Comparator.naturalOrder()).orElse(null);
    String error = same.stream().map(Cell::error).filter(Objects::nonNull).findFirst().orElse(null);
    return new Cell(first.client(), first.kind(), first.scenario(), first.concurrency(), errors == 0 ? "ok" : "errors",
        error, rps, Cell.median(rps), Collections.min(rps), Collections.max(rps), sum(same, Cell::requests), errors,
        median(same, Cell::cpuUsPerRequest), median(same, Cell::serverCpuUsPerRequest), median(same, Cell::p50Ms),
        median(same, Cell::p99Ms), connections, same.get(same.size() / 2).memory());
  }

  /**
   * Per run, {@code variant}'s CPU per request ÷ plain strand's on the same scenario and level; runs where
   * either did not measure are left out.
   */
  static List<Double> pairedCpuRatios(List<List<Cell>> runs, String variant, String scenario, int concurrency) {
    List<Double> ratios = new ArrayList<>();
    for (List<Cell> run : runs) {
      Cell v = Results.find(run, variant, scenario, concurrency);
      Cell s = Results.find(run, "strand", scenario, concurrency);
      if (v != null && s != null && v.cpuUsPerRequest() != null && s.cpuUsPerRequest() != null
          && s.cpuUsPerRequest() > 0) {
        ratios.add(v.cpuUsPerRequest() / s.cpuUsPerRequest());
      }
    }
    return ratios;
  }

  private static Double median(List<Cell> cells, Function<Cell, Double> f) {
    List<Double> values = cells.stream().map(f).filter(Objects::nonNull).toList();
    return values.isEmpty() ? null : Cell.median(values);
  }

  private static long sum(List<Cell> cells, java.util.function.ToLongFunction<Cell> f) {
    return cells.stream().mapToLong(f).sum();
  }

  private static String key(String client, String scenario, int concurrency) {
    return client + "\n" + scenario + "\n" + concurrency;
  }
}
