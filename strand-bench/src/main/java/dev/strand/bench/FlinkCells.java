package dev.strand.bench;

import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code bin/strand bench --flink}: the enrichment job of strand-flink on a local MiniCluster (parallelism 2,
 * capacity 100 per subtask, unordered) against the bench server's {@code /small}, once with Strand's
 * {@code StrandAsyncFunction} (a client per subtask, then one shared by both) and once with an equivalent
 * {@code RichAsyncFunction} around the JDK HttpClient,
 * plus Strand's raw async client at the same in-flight count (2 × 100), each in its own fresh JVM. Prints records/s
 * and CPU per record side by side with the two ratios (Strand's function ≥ 2× the JDK-client function and ≥ 0.9×
 * the raw client), and writes {@code report-flink.md} and {@code results-flink.json}. Each child JVM gets the
 * {@code strand.bench.clientJvm} options (a JFR recording, say).
 */
final class FlinkCells {

  static final int PARALLELISM = 2;
  static final int CAPACITY = 100;

  private FlinkCells() {
  }

  static int run(URI base, double warmup, double duration, int batches, double timeout, List<String> jvmArgs,
      Path dir, Path logs, Progress progress, PrintStream stdout) throws Exception {
    URI url = base.resolve("/small");
    int expect = BenchMain.probeLength(url);
    int inFlight = PARALLELISM * CAPACITY;
    Duration budget = Duration.ofMillis(Math.round((warmup + batches * duration + timeout + 90) * 1000));
    String loadStart = BenchMain.loadAverage();
    String machine = BenchMain.machine();
    List<Cell> cells = new ArrayList<>();
    for (String function : List.of("strand", "strand-shared", "jdk")) {
      progress.step("[flink-" + function + "]");
      Children.Outcome o = Children.run(Children.java(jvmArgs, FlinkBench.class, List.of(
              "--function", function, "--url", url.toString(), "--expect-bytes", Integer.toString(expect),
              "--parallelism", Integer.toString(PARALLELISM), "--capacity", Integer.toString(CAPACITY),
              "--warmup", Double.toString(warmup), "--duration", Double.toString(duration),
              "--batches", Integer.toString(batches), "--operator-timeout",
              System.getProperty("strand.bench.flinkOperatorTimeout", "30"))),
          budget, progress::update, logs.resolve("flink-" + function + ".log"));
      cells.add(read(o, "flink-" + function, inFlight));
    }
    progress.step("[strand raw]");
    Children.Outcome raw = Children.run(Children.java(jvmArgs, ClientRunner.class, List.of(
            "--client", "strand", "--url", url.toString(), "--scenario", "/small", "--levels",
            Integer.toString(inFlight), "--expect-bytes", Integer.toString(expect), "--warmup",
            Double.toString(warmup), "--rewarm", "0", "--duration", Double.toString(duration), "--batches",
            Integer.toString(batches), "--timeout", Double.toString(timeout))),
        budget, progress::update, logs.resolve("strand-raw.log"));
    cells.add(read(raw, "strand", inFlight));
    progress.done();

    String md = report(cells, machine, loadStart, BenchMain.loadAverage(), warmup, duration, batches);
    Files.writeString(dir.resolve("report-flink.md"), md);
    Report.json().writerWithDefaultPrettyPrinter().writeValue(dir.resolve("results-flink.json").toFile(), cells);
    stdout.print(md);
    stdout.println("Wrote " + dir.toAbsolutePath() + "/{report-flink.md,results-flink.json}");
    stdout.flush();
    return cells.stream().allMatch(c -> c.status().equals("ok")) ? 0 : 1;
  }

  private static Cell read(Children.Outcome o, String client, int inFlight) {
    try {
      return Report.json().readValue(o.results().getFirst(), Cell.class);
    } catch (Exception e) {
      return Cell.failed(client, "java", "flink /small", inFlight, o.describeFailure());
    }
  }

  static String report(List<Cell> cells, String machine, String loadStart, String loadEnd, double warmup,
      double duration, int batches) {
    StringBuilder b = new StringBuilder();
    b.append("## Flink enrichment: GET /small, MiniCluster parallelism ").append(PARALLELISM).append(", capacity ")
        .append(CAPACITY).append(" per subtask (").append(PARALLELISM * CAPACITY).append(" in flight)\n\n");
    b.append(String.format(Locale.ROOT, "%s; each row its own JVM: %.0f s warm-up, %d × %.0f s batches. "
        + "Load average (1 min) %s at start, %s at end (the bench's own load included), on %d cores.%n%n",
        machine, warmup, batches,
        duration, loadStart, loadEnd, Runtime.getRuntime().availableProcessors()));
    b.append("| row | records/s (median) | min–max | CPU µs/record (whole JVM) | errors |\n");
    b.append("|---|---:|---:|---:|---:|\n");
    for (Cell c : cells) {
      String name = switch (c.client()) {
        case "flink-strand" -> "Flink + StrandAsyncFunction";
        case "flink-strand-shared" -> "Flink + StrandAsyncFunction, one client for both subtasks";
        case "flink-jdk" -> "Flink + RichAsyncFunction(JDK HttpClient)";
        default -> "Strand raw async client (no Flink)";
      };
      if (c.measured()) {
        b.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f–%.0f | %s | %d |%n", name, c.rps(), c.rpsMin(),
            c.rpsMax(), c.cpuUsPerRequest() == null ? "?" : String.format(Locale.ROOT, "%.1f", c.cpuUsPerRequest()),
            c.errors()));
      } else {
        b.append("| ").append(name).append(" | ").append(c.status()).append(": ").append(c.error())
            .append(" | | | |\n");
      }
    }
    Cell strand = find(cells, "flink-strand");
    Cell shared = find(cells, "flink-strand-shared");
    Cell jdk = find(cells, "flink-jdk");
    Cell raw = find(cells, "strand");
    b.append('\n');
    b.append(ratio("Strand's function vs the JDK-client function (records/s)", strand, jdk, 2.0));
    b.append(ratio("Strand's function vs Strand's raw client (records/s)", strand, raw, 0.9));
    b.append(ratio("Strand's function with one shared client vs Strand's raw client (records/s)", shared, raw, 0.9));
    if (strand != null && jdk != null && strand.cpuUsPerRequest() != null && jdk.cpuUsPerRequest() != null) {
      b.append(String.format(Locale.ROOT, "- CPU per record, JDK-client function ÷ Strand's function: %.2f×%n",
          jdk.cpuUsPerRequest() / strand.cpuUsPerRequest()));
    }
    b.append('\n');
    return b.toString();
  }

  private static String ratio(String what, Cell a, Cell b, double target) {
    if (a == null || b == null || !a.measured() || !b.measured()) {
      return "- " + what + ": not measured (target ≥ " + target + "×)\n";
    }
    double r = a.rps() / b.rps();
    return String.format(Locale.ROOT, "- %s: %.2f× (target ≥ %.1f×: %s)%n", what, r, target,
        r >= target ? "met" : "NOT MET");
  }

  private static Cell find(List<Cell> cells, String client) {
    return cells.stream().filter(c -> c.client().equals(client)).findFirst().orElse(null);
  }
}
