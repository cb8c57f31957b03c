package dev.strand.bench;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * nghttp2's {@code h2load} as the HTTP/2 ceiling: one connection carrying N concurrent streams, time-bounded
 * ({@code -D}), one process per batch, like {@link WrkRunner}. It checks status codes but not bodies, and does
 * not verify the server certificate.
 */
final class H2loadRunner {

  static final String SETUP = "h2load -c1 -mN -Ds (one connection, N concurrent streams; h2 by ALPN over TLS, "
      + "prior knowledge for h2c; no body checks, no certificate verification; one process per batch; "
      + "no percentiles)";

  private static final Pattern FINISHED = Pattern.compile("finished in ([0-9.]+)(us|ms|s), ([0-9.]+) req/s");
  private static final Pattern REQUESTS = Pattern.compile(
      "requests: (\\d+) total, (\\d+) started, (\\d+) done, (\\d+) succeeded, (\\d+) failed, (\\d+) errored, "
          + "(\\d+) timeout");
  private static final Pattern STATUS = Pattern.compile("status codes: (\\d+) 2xx");
  private static final Pattern TIMES = Pattern.compile("(\\d+)m([0-9.]+)s\\s+(\\d+)m([0-9.]+)s");

  private H2loadRunner() {
  }

  static boolean available() {
    return WrkRunner.which("h2load") != null;
  }

  /** One h2load run, parsed: requests are the 2xx responses, errors everything else that was started. */
  record Run(long requests, double rps, long errors, Double cpuSeconds) {}

  static Cell level(URI url, String scenario, int concurrency, Duration warm, Duration each, int batches,
      URI statsBase, Consumer<String> progress) {
    long before = statsBase == null ? -1 : ServerStats.accepted(statsBase);
    List<Double> rps = new ArrayList<>();
    long requests = 0;
    long errors = 0;
    double cpu = 0;
    try {
      if (!warm.isZero()) {
        progress.accept("h2load " + scenario + " c=" + concurrency + " warm-up");
        run(url, concurrency, warm);
      }
      for (int b = 1; b <= batches; b++) {
        progress.accept("h2load " + scenario + " c=" + concurrency + " batch " + b + "/" + batches);
        Run r = run(url, concurrency, each);
        rps.add(r.rps());
        requests += r.requests();
        errors += r.errors();
        cpu += r.cpuSeconds() == null ? Double.NaN : r.cpuSeconds();
      }
    } catch (Exception e) {
      return Cell.failed("h2load", "reference", scenario, concurrency, LoadLoop.describe(e));
    }
    long after = statsBase == null ? -1 : ServerStats.accepted(statsBase);
    long conns = ServerStats.between(before, after);
    Double cpuUs = Double.isNaN(cpu) || requests == 0 ? null : cpu * 1e6 / requests;
    return Cell.measured("h2load", "reference", scenario, concurrency, rps, requests, errors,
        errors > 0 ? "non-2xx, failed or timed-out requests reported by h2load" : null, cpuUs, null, null,
        conns < 0 ? null : conns);
  }

  static Run run(URI url, int concurrency, Duration d) throws Exception {
    long secs = Math.max(1, Math.round(d.toMillis() / 1000.0));
    String cmd = "h2load -c1 -m" + concurrency + " -D" + secs + " '" + url + "'; times";
    Children.Outcome o = Children.run(List.of("bash", "-c", cmd), d.plusSeconds(60), s -> { }, null);
    String text = String.join("\n", o.stdout());
    if (o.exitCode() != 0 || !FINISHED.matcher(text).find()) {
      throw new IllegalStateException("h2load failed: " + o.describeFailure() + " "
          + text.lines().filter(l -> !l.isBlank()).findFirst().orElse(""));
    }
    return parse(text);
  }

  /** Parses h2load's summary followed by bash's {@code times} output. */
  static Run parse(String text) {
    Matcher f = FINISHED.matcher(text);
    if (!f.find()) {
      throw new IllegalArgumentException("no \"finished in\" line in h2load output");
    }
    double rps = Double.parseDouble(f.group(3));
    Matcher r = REQUESTS.matcher(text);
    Matcher s = STATUS.matcher(text);
    long done = r.find() ? Long.parseLong(r.group(3)) : 0;
    long ok = s.find() ? Long.parseLong(s.group(1)) : 0;
    // "done" counts failed streams too; streams still open when the duration ends are neither.
    long errors = Math.max(0, done - ok);
    Double cpu = null;
    Matcher c = TIMES.matcher(text);
    int line = 0;
    while (c.find()) {
      line++;
      if (line == 2) {
        cpu = Integer.parseInt(c.group(1)) * 60 + Double.parseDouble(c.group(2))
            + Integer.parseInt(c.group(3)) * 60 + Double.parseDouble(c.group(4));
      }
    }
    return new Run(ok, rps, errors, cpu);
  }
}
