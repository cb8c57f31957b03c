package dev.strand.bench;

import java.net.URI;
import java.time.Duration;
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

  static final String SETUP = "h2load -c1 -mN -Ds (one connection, N concurrent streams, or N/1000 connections "
      + "beyond the server's 1000 streams; --warm-up-time of two answers' delay on /delay; h2 by ALPN over TLS, "
      + "prior knowledge for h2c; no body checks, no certificate verification; one process per batch; "
      + "no percentiles)";

  private static final Pattern FINISHED = Pattern.compile("finished in ([0-9.]+)(us|ms|s), ([0-9.]+) req/s");
  private static final Pattern REQUESTS = Pattern.compile(
      "requests: (\\d+) total, (\\d+) started, (\\d+) done, (\\d+) succeeded, (\\d+) failed, (\\d+) errored, "
          + "(\\d+) timeout");
  private static final Pattern STATUS = Pattern.compile("status codes: (\\d+) 2xx");

  private H2loadRunner() {
  }

  static boolean available() {
    return WrkRunner.which("h2load") != null;
  }

  /** One h2load run, parsed: requests are the 2xx responses, errors everything else that was started. */
  record Run(long requests, double rps, long errors, Double cpuSeconds) implements ReferenceLevel.Batch {}

  static Cell level(URI url, String scenario, int concurrency, Duration warm, Duration each, int batches,
      URI statsBase, Consumer<String> progress) {
    return ReferenceLevel.measure("h2load", H2loadRunner::run, ReferenceLevel.Batch::requests,
        "non-2xx, failed or timed-out requests reported by h2load", url, scenario, concurrency, warm, each, batches,
        statsBase, progress);
  }

  static Run run(URI url, int concurrency, Duration d) throws Exception {
    double delay = Results.delaySeconds(url.getPath());
    Children.Outcome o = Children.run(List.of("bash", "-c", command(url, concurrency, d) + "; times"),
        d.plusSeconds(60 + (long) (2 * delay)), s -> { }, null);
    String text = String.join("\n", o.stdout());
    if (o.exitCode() != 0 || !FINISHED.matcher(text).find()) {
      throw new IllegalStateException("h2load failed: " + o.describeFailure() + " "
          + text.lines().filter(l -> !l.isBlank()).findFirst().orElse(""));
    }
    return parse(text);
  }

  /** The h2load command line for one batch of {@code d} at {@code concurrency} streams. */
  static String command(URI url, int concurrency, Duration d) {
    long secs = Math.max(1, Math.round(d.toMillis() / 1000.0));
    // More streams than one connection may carry go over as many connections as they need, as every client's.
    int connections = (concurrency + ServerMain.MAX_STREAMS - 1) / ServerMain.MAX_STREAMS;
    int streams = (concurrency + connections - 1) / connections;
    // Each batch is a fresh process: on a slow server its streams first need one answer's time to fill the
    // pipe, which h2load spends warming up rather than in the timed window.
    double delay = Results.delaySeconds(url.getPath());
    String warmUp = delay > 0 ? " --warm-up-time=" + (long) Math.ceil(2 * delay) : "";
    return "h2load -c" + connections + " -m" + streams + " -D" + secs + warmUp + " '" + url + "'";
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
    Double cpu = ReferenceLevel.childCpuSeconds(text);
    return new Run(ok, rps, errors, cpu);
  }
}
