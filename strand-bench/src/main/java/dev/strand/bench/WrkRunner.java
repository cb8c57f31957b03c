package dev.strand.bench;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The C ceiling: {@code wrk -t1 -cN -dDs --latency --timeout 30s URL}, one process per batch (so it opens N
 * connections per batch), under {@code bash -c '...; times'} so its CPU can be read. wrk checks no bodies.
 */
final class WrkRunner {

  static final String SETUP = "wrk -t1 -cN -dDs --latency --timeout 30s (one C thread; no body checks; "
      + "one wrk process per batch, and each opens N + 1 connections, so its conns column is not comparable)";

  private static final Pattern RPS = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
  private static final Pattern TOTAL = Pattern.compile("(\\d+) requests in ([0-9.]+)(us|ms|s|m)");
  private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses:\\s+(\\d+)");
  private static final Pattern SOCKET = Pattern.compile(
      "Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");
  private static final Pattern PCT = Pattern.compile("^\\s+(50|99)(?:\\.0+)?%\\s+([0-9.]+)(us|ms|s|m)\\s*$",
      Pattern.MULTILINE);

  private WrkRunner() {
  }

  static boolean available() {
    return which("wrk") != null;
  }

  static Path which(String name) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      Path p = Path.of(dir.isEmpty() ? "." : dir, name);
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    return null;
  }

  /** One wrk run; parsed. */
  record Run(long requests, double seconds, double rps, long errors, Double p50Ms, Double p99Ms, Double cpuSeconds)
      implements ReferenceLevel.Batch {}

  static Cell level(URI url, String scenario, int concurrency, Duration warm, Duration each, int batches,
      URI statsBase, Consumer<String> progress) {
    // wrk's total counts non-2xx responses too.
    return ReferenceLevel.measure("wrk", WrkRunner::run, b -> b.requests() - b.errors(),
        "non-2xx responses or socket errors reported by wrk", url, scenario, concurrency, warm, each, batches,
        statsBase, progress);
  }

  static Run run(URI url, int concurrency, Duration d) throws Exception {
    long secs = Math.max(1, Math.round(d.toMillis() / 1000.0));
    String cmd = "wrk -t1 -c" + concurrency + " -d" + secs + "s --latency --timeout 30s '" + url + "'; times";
    Children.Outcome o = Children.run(List.of("bash", "-c", cmd), d.plusSeconds(60), s -> { }, null);
    String text = String.join("\n", o.stdout());
    if (o.exitCode() != 0 || !RPS.matcher(text).find()) {
      throw new IllegalStateException("wrk failed: " + o.describeFailure() + " " + text.lines().findFirst().orElse(""));
    }
    return parse(text);
  }

  /** Parses wrk's report followed by bash's {@code times} output. */
  static Run parse(String text) {
    Matcher m = RPS.matcher(text);
    if (!m.find()) {
      throw new IllegalArgumentException("no Requests/sec in wrk output");
    }
    double rps = Double.parseDouble(m.group(1));
    long requests = 0;
    double seconds = 0;
    Matcher t = TOTAL.matcher(text);
    if (t.find()) {
      requests = Long.parseLong(t.group(1));
      seconds = toMs(Double.parseDouble(t.group(2)), t.group(3)) / 1000;
    }
    long errors = 0;
    Matcher n = NON_2XX.matcher(text);
    if (n.find()) {
      errors += Long.parseLong(n.group(1));
    }
    Matcher s = SOCKET.matcher(text);
    if (s.find()) {
      for (int g = 1; g <= 4; g++) {
        errors += Long.parseLong(s.group(g));
      }
    }
    Double p50 = null;
    Double p99 = null;
    Matcher p = PCT.matcher(text);
    while (p.find()) {
      double ms = toMs(Double.parseDouble(p.group(2)), p.group(3));
      if (p.group(1).equals("50")) {
        p50 = ms;
      } else {
        p99 = ms;
      }
    }
    Double cpu = ReferenceLevel.childCpuSeconds(text);
    return new Run(requests, seconds, rps, errors, p50, p99, cpu);
  }

  private static double toMs(double v, String unit) {
    return switch (unit) {
      case "us" -> v / 1000;
      case "ms" -> v;
      case "s" -> v * 1000;
      case "m" -> v * 60_000;
      default -> throw new IllegalArgumentException(unit);
    };
  }
}
