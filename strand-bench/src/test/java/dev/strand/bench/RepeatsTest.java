package dev.strand.bench;

import static dev.strand.bench.ReportTest.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RepeatsTest {

  @Test
  void aCellOverRunsIsTheMedianOfTheirMediansAndSpansThem() {
    Cell combined = Repeats.oneCell(List.of(
        ok("strand", "java", "/small", 100, 50_000, 20, 100),
        ok("strand", "java", "/small", 100, 70_000, 16, 100),
        ok("strand", "java", "/small", 100, 40_000, 30, 104)));

    assertEquals(50_000, combined.rps());
    assertEquals(40_000, combined.rpsMin());
    assertEquals(70_000, combined.rpsMax());
    assertEquals(List.of(50_000.0, 70_000.0, 40_000.0), combined.batchRps());
    assertEquals(20, combined.cpuUsPerRequest());
    assertEquals(3000, combined.requests());
    assertEquals(104L, combined.connections());
    assertEquals("ok", combined.status());
  }

  @Test
  void oneFailedRunFailsTheCellAndSaysWhich() {
    Cell combined = Repeats.oneCell(List.of(
        ok("strand", "java", "/small", 100, 50_000, 20, 100),
        Cell.failed("strand", "java", "/small", 100, "java.io.IOException: boom")));

    assertEquals("failed", combined.status());
    assertEquals("run 2 of 2: java.io.IOException: boom", combined.error());
    assertEquals(null, combined.rps());
  }

  @Test
  void runsCombineByClientScenarioAndLevelInTheFirstRunsOrder() {
    List<List<Cell>> runs = List.of(
        List.of(ok("strand", "java", "/small", 1, 10_000, 70, 1), ok("vertx", "java", "/small", 1, 12_000, 60, 1)),
        List.of(ok("vertx", "java", "/small", 1, 8_000, 80, 1), ok("strand", "java", "/small", 1, 14_000, 50, 1)));

    List<Cell> cells = Repeats.combine(runs);

    assertEquals(List.of("strand", "vertx"), cells.stream().map(Cell::client).toList());
    assertEquals(12_000, cells.get(0).rps());
    assertEquals(10_000, cells.get(1).rps());
  }

  @Test
  void aVariantIsComparedWithStrandWithinEachRun() {
    List<List<Cell>> runs = List.of(
        pair(ok("strand", "java", "/small", 100, 50_000, 20, 100), listener(48_000, 21)),
        pair(listener(40_000, 33), ok("strand", "java", "/small", 100, 41_000, 30, 100)),
        pair(ok("strand", "java", "/small", 100, 50_000, 20, 100),
            Cell.failed("strand-listener", "java", "/small", 100, "boom")));

    List<Double> ratios = Repeats.pairedCpuRatios(runs, "strand-listener", "/small", 100);

    assertEquals(2, ratios.size());
    assertEquals(1.05, ratios.get(0), 1e-9);
    assertEquals(1.10, ratios.get(1), 1e-9);
  }

  @Test
  void theReportGivesThePairedRatioBesideTheCombinedOne(@TempDir Path dir) throws Exception {
    List<List<Cell>> runs = List.of(
        pair(ok("strand", "java", "/small", 100, 50_000, 20, 100), listener(48_000, 21)),
        pair(listener(40_000, 33), ok("strand", "java", "/small", 100, 41_000, 30, 100)),
        pair(ok("strand", "java", "/small", 100, 45_000, 25, 100), listener(44_000, 25)));
    Results.Meta meta = ReportTest.meta("default", List.of("/small"), List.of(100),
        List.of("strand", "strand-listener"), List.of());
    Results r = new Results(meta, Repeats.combine(runs), List.of(), List.of(), Map.of(), runs);

    String md = Report.write(r, dir);

    assertTrue(md.contains("median (min–max) over 3 runs"), md);
    assertTrue(md.contains("| strand-listener | 100 | 44,000 | 0.98× | 25.0 | 1.00× | 1.05× (1.00–1.10) |"), md);
    assertEquals(runs, Report.read(dir.resolve("results.json")).runs());
  }

  private static Cell listener(double rps, double cpu) {
    return ok("strand-listener", "java", "/small", 100, rps, cpu, 100);
  }

  /** One run of two clients, in the order they ran. */
  private static List<Cell> pair(Cell first, Cell second) {
    return List.of(first, second);
  }
}
