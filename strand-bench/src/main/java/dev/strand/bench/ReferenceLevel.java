package dev.strand.bench;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One concurrency level of a reference load tool (wrk, h2load): warm-up, then one tool process per timed
 * batch run under {@code bash -c '...; times'}, summed into a {@link Cell}. The tools differ only in their
 * command line and output format, which each runner parses into a {@link Batch}.
 */
final class ReferenceLevel {
  private static final Pattern TIMES = Pattern.compile("(\\d+)m([0-9.]+)s\\s+(\\d+)m([0-9.]+)s");

  private ReferenceLevel() {}

  /** What one tool process reported. */
  interface Batch {
    long requests();

    double rps();

    long errors();

    Double cpuSeconds();

    default Double p50Ms() {
      return null;
    }

    default Double p99Ms() {
      return null;
    }
  }

  /** Runs the tool once for {@code duration} at {@code concurrency}. */
  interface Tool {
    Batch run(URI url, int concurrency, Duration duration) throws Exception;
  }

  /**
   * @param successfulRequests how to count good requests from a batch (wrk counts errors in its total)
   * @param errorNote the cell's note when the tool reported errors
   */
  static Cell measure(String tool, Tool runner, java.util.function.ToLongFunction<Batch> successfulRequests,
      String errorNote, URI url, String scenario, int concurrency, Duration warm, Duration each, int batches,
      URI statsBase, Consumer<String> progress) {
    long before = statsBase == null ? -1 : ServerStats.accepted(statsBase);
    List<Double> rps = new ArrayList<>();
    List<Double> p50 = new ArrayList<>();
    List<Double> p99 = new ArrayList<>();
    long requests = 0;
    long errors = 0;
    double cpu = 0;
    long serverCpu0 = -1;
    try {
      if (!warm.isZero()) {
        progress.accept(tool + " " + scenario + " c=" + concurrency + " warm-up");
        runner.run(url, concurrency, warm);
      }
      serverCpu0 = statsBase == null ? -1 : ServerStats.cpuNanos(statsBase);
      for (int b = 1; b <= batches; b++) {
        progress.accept(tool + " " + scenario + " c=" + concurrency + " batch " + b + "/" + batches);
        Batch r = runner.run(url, concurrency, each);
        rps.add(r.rps());
        requests += successfulRequests.applyAsLong(r);
        errors += r.errors();
        cpu += r.cpuSeconds() == null ? Double.NaN : r.cpuSeconds();
        if (r.p50Ms() != null) {
          p50.add(r.p50Ms());
        }
        if (r.p99Ms() != null) {
          p99.add(r.p99Ms());
        }
      }
    } catch (Exception e) {
      return Cell.failed(tool, "reference", scenario, concurrency, LoadLoop.describe(e));
    }
    long serverCpu1 = statsBase == null ? -1 : ServerStats.cpuNanos(statsBase);
    long after = statsBase == null ? -1 : ServerStats.accepted(statsBase);
    // Less the connections of the two reads of the server's CPU time.
    long conns = ServerStats.between(before, after);
    conns = conns < 0 || statsBase == null ? conns : Math.max(0, conns - 2);
    Double cpuUs = Double.isNaN(cpu) || requests == 0 ? null : cpu * 1e6 / requests;
    return Cell.measured(tool, "reference", scenario, concurrency, rps, requests, errors,
        errors > 0 ? errorNote : null, cpuUs, median(p50), median(p99), conns < 0 ? null : conns)
        .withServerCpu(ServerStats.cpuMicrosPerRequest(serverCpu0, serverCpu1, requests + errors));
  }

  /** The tool's CPU seconds: {@code times} prints the shell's own user/sys, then its children's on the second line. */
  static Double childCpuSeconds(String text) {
    Matcher c = TIMES.matcher(text);
    int line = 0;
    while (c.find()) {
      line++;
      if (line == 2) {
        return Integer.parseInt(c.group(1)) * 60 + Double.parseDouble(c.group(2))
            + Integer.parseInt(c.group(3)) * 60 + Double.parseDouble(c.group(4));
      }
    }
    return null;
  }

  static Double median(List<Double> xs) {
    return xs.isEmpty() ? null : Cell.median(xs);
  }
}
