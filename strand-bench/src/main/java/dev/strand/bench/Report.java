package dev.strand.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/** Turns {@link Results} into the markdown report, results.json, results.csv, SVG charts and index.html. */
public final class Report {

  private Report() {
  }

  /** Writes every output file into {@code dir}; returns the markdown (also written as report.md). */
  public static String write(Results r, Path dir) throws IOException {
    Files.createDirectories(dir);
    String md = markdown(r);
    Files.writeString(dir.resolve("report.md"), md);
    json().writeValue(dir.resolve("results.json").toFile(), r);
    Files.writeString(dir.resolve("results.csv"), csv(r));
    List<String> charts = new ArrayList<>();
    for (String scenario : r.meta().scenarios()) {
      String slug = slug(scenario);
      Map<String, Svg.Series> rps = series(r, scenario, Cell::rps);
      double delay = Results.delaySeconds(scenario);
      if (delay > 0) {
        // A server that answers after a fixed delay caps every client at in-flight ÷ delay: the line to reach.
        rps.put("ideal (c ÷ " + fmt(delay * 1000) + " ms)", new Svg.Series(r.meta().concurrency().stream()
            .map(c -> new double[] {c, c / delay}).toList(), true));
      }
      Files.writeString(dir.resolve("rps-" + slug + ".svg"), Svg.chart("req/s vs concurrency — " + scenario
          + " (higher is better)", "requests per second (median of batches)", r.meta().concurrency(), rps));
      Files.writeString(dir.resolve("cpu-" + slug + ".svg"), Svg.chart("client CPU per request — " + scenario
          + " (lower is better)", "client CPU µs per request", r.meta().concurrency(),
          series(r, scenario, Cell::cpuUsPerRequest)));
      charts.add("rps-" + slug + ".svg");
      charts.add("cpu-" + slug + ".svg");
    }
    Files.writeString(dir.resolve("index.html"), html(r, md, charts));
    return md;
  }

  public static ObjectMapper json() {
    return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  }

  public static Results read(Path resultsJson) throws IOException {
    return json().readValue(resultsJson.toFile(), Results.class);
  }

  static String slug(String scenario) {
    String s = scenario.replaceAll("^/+", "").replaceAll("[^A-Za-z0-9]+", "-");
    return s.isEmpty() ? "root" : s;
  }

  private static Map<String, Svg.Series> series(Results r, String scenario, Function<Cell, Double> y) {
    Map<String, Svg.Series> out = new LinkedHashMap<>();
    for (String client : r.meta().clients()) {
      List<double[]> pts = new ArrayList<>();
      boolean reference = false;
      for (Cell c : r.scenario(scenario)) {
        if (c.client().equals(client)) {
          reference = c.kind().equals("reference");
          if (c.measured() && y.apply(c) != null) {
            pts.add(new double[] {c.concurrency(), y.apply(c)});
          }
        }
      }
      // A client that does not speak the scenario's protocol has no line: the table says why.
      List<Cell> cells = r.scenario(scenario).stream().filter(c -> c.client().equals(client)).toList();
      if (!cells.isEmpty() && !cells.stream().allMatch(Cell::notApplicable)) {
        out.put(client + (reference ? " (ref)" : ""), new Svg.Series(pts, reference));
      }
    }
    return out;
  }

  static String markdown(Results r) {
    Results.Meta m = r.meta();
    StringBuilder s = new StringBuilder();
    s.append("# Strand bench — ").append(m.started()).append("\n\n");
    s.append("Preset **").append(m.preset()).append("**. ").append(m.machine()).append(". ").append(m.java())
        .append(".\n\n");
    s.append("Server: ").append(m.server()).append(". **Client and server share this machine**: absolute req/s is "
        + "lower than on separate hosts; the ratios and the client CPU per request are the numbers to take away.\n\n");
    for (String note : m.notes()) {
      s.append("> ").append(note).append("\n");
    }
    if (!m.notes().isEmpty()) {
      s.append("\n");
    }
    s.append("Method: one fresh JVM per (client, scenario); levels in order; ").append(fmt(m.warmup()))
        .append(" s warm-up on the first level (twice that on HTTP/2), ").append(fmt(m.rewarm())).append(" s re-warm on the others; then ")
        .append(m.batches()).append(" timed batches of ").append(fmt(m.duration()))
        .append(" s cut from continuous load. req/s = median of batches (min–max). CPU µs/req = client process "
            + "user+sys over the timed batches ÷ requests; server CPU µs/req the same for the testkit server's "
            + "process (— for other servers); cores = both together × req/s, the share of the machine the pair kept busy. "
            + "p50/p99 = HdrHistogram over the timed batches. "
            + "conns = connections the server accepted during the cell. Every response checked: status 200 and "
            + "full body length (wrk checks neither). Pool size = in-flight bound = concurrency for every client.\n\n");

    for (String scenario : m.scenarios()) {
      s.append("## ").append(scenario).append("\n\n");
      double d = Results.delaySeconds(scenario);
      if (d > 0) {
        s.append("Ideal req/s = concurrency ÷ ").append(fmt(d)).append(" s: ");
        List<String> ideals = new ArrayList<>();
        for (int c : m.concurrency()) {
          ideals.add("c=" + c + " → " + fmt(c / d));
        }
        s.append(String.join(", ", ideals)).append(".\n\n");
      }
      s.append("| client | c | req/s | min–max | CPU µs/req | server CPU µs/req | cores | p50 ms | p99 ms | conns "
          + "| errors | status |\n");
      s.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
      for (int c : m.concurrency()) {
        for (String client : m.clients()) {
          Cell x = r.find(client, scenario, c);
          if (x == null) {
            continue;
          }
          String name = client + (x.kind().equals("reference") ? " (ref)" : "");
          if (x.notApplicable()) {
            s.append("| ").append(name).append(" | ").append(c)
                .append(" | — | — | — | — | — | — | — | — | — | n/a (")
                .append(cell(x.error())).append(") |\n");
            continue;
          }
          if (!x.measured()) {
            s.append("| ").append(name).append(" | ").append(c).append(" | — | — | — | — | — | — | — | — | ")
                .append(x.errors()).append(" | **failed**: ").append(cell(x.error())).append(" |\n");
            continue;
          }
          s.append("| ").append(name).append(" | ").append(c)
              .append(" | ").append(num(x.rps()))
              .append(" | ").append(num(x.rpsMin())).append("–").append(num(x.rpsMax()))
              .append(" | ").append(num(x.cpuUsPerRequest()))
              .append(" | ").append(num(x.serverCpuUsPerRequest()))
              .append(" | ").append(cores(x))
              .append(" | ").append(ms(x.p50Ms()))
              .append(" | ").append(ms(x.p99Ms()))
              .append(" | ").append(x.connections() == null ? "n/a" : x.connections().toString())
              .append(" | ").append(x.errors())
              .append(" | ").append(x.status().equals("ok") ? "ok" : "**" + x.status() + "**: " + cell(x.error()))
              .append(" |\n");
        }
      }
      s.append("\n");
      ratios(r, scenario, s);
      memory(r, scenario, s);
      variants(r, scenario, s);
    }

    s.append("## Targets\n\n");
    s.append("Checked against this run as measured; ");
    s.append(m.preset().equals("default") ? "" : "a non-default preset is indicative only; ");
    s.append("a target without data is \"not measured\", not met.\n\n");
    s.append("| target | verdict | detail |\n|---|---|---|\n");
    for (Targets.Verdict v : r.targets()) {
      String verdict = v.verdict().equals(Targets.MET) ? "met" : "**" + v.verdict() + "**";
      s.append("| ").append(v.target()).append(" | ").append(verdict).append(" | ").append(cell(v.detail()))
          .append(" |\n");
    }
    s.append("\n");

    List<Cell> failed = r.cells().stream().filter(c -> !c.status().equals("ok") && !c.notApplicable()).toList();
    s.append("## Failed clients and errors\n\n");
    if (failed.isEmpty()) {
      s.append("None: every cell completed with zero errors.\n\n");
    } else {
      for (Cell c : failed) {
        s.append("- ").append(c.client()).append(" ").append(c.scenario()).append(" c=").append(c.concurrency())
            .append(": ").append(c.status()).append(" — ").append(c.error()).append("\n");
      }
      s.append("\n");
    }

    if (!r.defaults().isEmpty()) {
      s.append("## Client defaults (nothing configured)\n\n");
      s.append("Read from each library where it exposes them; `GET /never` (accepts, never replies) with a "
          + "default-built client, under a watchdog.\n\n");
      s.append("| client | version | connect timeout | read timeout | pool | redirects | GET /never |\n");
      s.append("|---|---|---|---|---|---|---|\n");
      for (DefaultsProbe.Defaults d : r.defaults()) {
        s.append("| ").append(d.client()).append(" | ").append(cell(d.version())).append(" | ")
            .append(cell(d.connectTimeout())).append(" | ").append(cell(d.readTimeout())).append(" | ")
            .append(cell(d.pool())).append(" | ").append(cell(d.redirects())).append(" | ").append(cell(d.never()))
            .append(" |\n");
      }
      s.append("\n");
    }

    s.append("## Setup of each client\n\n");
    for (Map.Entry<String, String> e : r.setups().entrySet()) {
      s.append("- **").append(e.getKey()).append("**: ").append(e.getValue()).append("\n");
    }
    s.append("\nStarted ").append(m.started()).append(", finished ").append(m.finished()).append(".\n");
    return s.toString();
  }

  private static void ratios(Results r, String scenario, StringBuilder s) {
    Results.Meta m = r.meta();
    boolean any = m.concurrency().stream().anyMatch(c -> r.find("strand", scenario, c) != null);
    if (!any) {
      return;
    }
    double d = Results.delaySeconds(scenario);
    s.append("Ratios (side by side in this run):\n\n");
    String refName = Scenario.of(scenario).wire().h2() ? "h2load" : "wrk";
    s.append("| c | strand req/s | fastest Java peer | strand ÷ best peer | " + refName + " req/s | strand ÷ "
        + refName + " | "
        + "strand-sync ÷ strand |").append(d > 0 ? " strand ÷ ideal |" : "").append("\n");
    s.append("|---:|---:|---|---:|---:|---:|---:|").append(d > 0 ? "---:|" : "").append("\n");
    for (int c : m.concurrency()) {
      Cell st = r.find("strand", scenario, c);
      Cell sync = r.find("strand-sync", scenario, c);
      Cell best = Targets.bestPeer(r.cells(), scenario, c);
      Cell wrk = r.find(refName, scenario, c);
      Double sr = st != null && st.measured() ? st.rps() : null;
      s.append("| ").append(c)
          .append(" | ").append(num(sr))
          .append(" | ").append(best == null ? "—" : best.client() + " " + num(best.rps()))
          .append(" | ").append(ratio(sr, best == null ? null : best.rps()))
          .append(" | ").append(wrk != null && wrk.measured() ? num(wrk.rps()) : "—")
          .append(" | ").append(ratio(sr, wrk != null && wrk.measured() ? wrk.rps() : null))
          .append(" | ").append(ratio(sync != null && sync.measured() ? sync.rps() : null, sr))
          .append(" |");
      if (d > 0) {
        s.append(" ").append(ratio(sr, c / d)).append(" |");
      }
      s.append("\n");
    }
    s.append("\n");
  }

  /** Each client's {@link Memory} per request in flight, where the run measured it. */
  private static void memory(Results r, String scenario, StringBuilder s) {
    List<Cell> cells = r.scenario(scenario).stream().filter(c -> c.memory() != null).toList();
    if (cells.isEmpty()) {
      return;
    }
    double d = Results.delaySeconds(scenario);
    s.append("Memory per request in flight: growth from before the load to the end of the batches, every request "
        + "still in flight; heap and direct after a full GC (JVMs), resident set for every process. KiB per request "
        + "the caller has in flight (c), then per request the server had in hand at that moment (its `/delay` "
        + "holding the response): an open connection on HTTP/1.1, an open stream on HTTP/2. A client that queues "
        + "requests of its own rather than sending them has fewer at the server than in flight:\n\n");
    s.append("| client | c | heap | direct | heap + direct | resident set | at the server | heap + direct per request "
        + "there | resident set per request there |").append(d > 0 ? " req/s ÷ ideal |" : "")
        .append("\n|---|---:|---:|---:|---:|---:|---:|---:|---:|").append(d > 0 ? "---:|" : "").append("\n");
    for (Cell c : cells) {
      Memory m = c.memory();
      boolean jvm = m.heapBytes() >= 0;
      s.append("| ").append(c.client()).append(" | ").append(c.concurrency())
          .append(" | ").append(jvm ? kib(m.heapBytes() / (double) m.inFlight()) : "—")
          .append(" | ").append(jvm ? kib(m.directBytes() / (double) m.inFlight()) : "—")
          .append(" | ").append(jvm ? kib(m.liveBytesPerRequest()) : "—")
          .append(" | ").append(kib(m.rssBytesPerRequest()))
          .append(" | ").append(m.atServer() > 0 ? String.format(Locale.ROOT, "%,d", m.atServer()) : "—")
          .append(" | ").append(m.liveBytesPerServerRequest() != null ? kib(m.liveBytesPerServerRequest()) : "—")
          .append(" | ").append(m.rssBytesPerServerRequest() != null ? kib(m.rssBytesPerServerRequest()) : "—")
          .append(" |");
      if (d > 0) {
        s.append(" ").append(ratio(c.rps(), c.concurrency() / d)).append(" |");
      }
      s.append("\n");
    }
    s.append("\n");
  }

  private static String kib(double bytes) {
    return String.format("%.2f", bytes / 1024);
  }

  /** Strand with one feature on (strand-pipeline, strand-listener, strand-observed...) beside plain strand. */
  private static void variants(Results r, String scenario, StringBuilder s) {
    var m = r.meta();
    List<String> names = r.cells().stream().map(Cell::client)
        .filter(n -> n.startsWith("strand-") && !n.equals("strand-sync")).distinct().toList();
    if (names.isEmpty()) {
      return;
    }
    boolean paired = !r.runs().isEmpty();
    s.append("Strand variants beside plain strand (same run; CPU per request is the cost of the feature")
        .append(paired ? "; paired: the variant's CPU per request ÷ strand's within each run, median (min–max) over "
            + r.runs().size() + " runs" : "").append("):\n\n");
    s.append("| variant | c | req/s | ÷ strand req/s | CPU µs/req | ÷ strand CPU µs/req |")
        .append(paired ? " paired ÷ strand CPU |\n|---|---:|---:|---:|---:|---:|---:|\n" : "\n|---|---:|---:|---:|---:|---:|\n");
    for (String name : names) {
      for (int c : m.concurrency()) {
        Cell v = r.find(name, scenario, c);
        Cell st = r.find("strand", scenario, c);
        if (v == null || !v.measured()) {
          continue;
        }
        Double base = st != null && st.measured() ? st.rps() : null;
        Double baseCpu = st != null && st.measured() ? st.cpuUsPerRequest() : null;
        s.append("| ").append(name).append(" | ").append(c).append(" | ").append(num(v.rps()))
            .append(" | ").append(ratio(v.rps(), base))
            .append(" | ").append(v.cpuUsPerRequest() == null ? "—" : String.format(java.util.Locale.ROOT, "%.1f", v.cpuUsPerRequest()))
            .append(" | ").append(ratio(v.cpuUsPerRequest(), baseCpu));
        if (paired) {
          List<Double> ratios = Repeats.pairedCpuRatios(r.runs(), name, scenario, c);
          s.append(" | ").append(ratios.isEmpty() ? "—" : String.format(Locale.ROOT, "%.2f× (%.2f–%.2f)",
              Cell.median(ratios), Collections.min(ratios), Collections.max(ratios)));
        }
        s.append(" |\n");
      }
    }
    s.append("\n");
  }

  /**
   * The cores the client and the server kept busy together over the timed batches: both CPU times per request
   * × req/s. Near the machine's core count, the pair is CPU-bound, and req/s follows the CPU per request.
   */
  static String cores(Cell x) {
    if (x.cpuUsPerRequest() == null || x.serverCpuUsPerRequest() == null || x.rps() == null) {
      return "—";
    }
    double cores = (x.cpuUsPerRequest() + x.serverCpuUsPerRequest()) * x.rps() / 1e6;
    return String.format(java.util.Locale.ROOT, "%.2f", cores);
  }

  static String csv(Results r) {
    StringBuilder s = new StringBuilder("client,kind,scenario,concurrency,status,rps,rps_min,rps_max,"
        + "cpu_us_per_request,server_cpu_us_per_request,p50_ms,p99_ms,connections,requests,errors,error\n");
    for (Cell c : r.cells()) {
      s.append(String.join(",", c.client(), c.kind(), c.scenario(), Integer.toString(c.concurrency()), c.status(),
          raw(c.rps()), raw(c.rpsMin()), raw(c.rpsMax()), raw(c.cpuUsPerRequest()), raw(c.serverCpuUsPerRequest()),
          raw(c.p50Ms()), raw(c.p99Ms()),
          c.connections() == null ? "" : c.connections().toString(), Long.toString(c.requests()),
          Long.toString(c.errors()), quote(c.error())));
      s.append("\n");
    }
    return s.toString();
  }

  static String html(Results r, String markdown, List<String> charts) {
    StringBuilder s = new StringBuilder();
    s.append("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Strand bench ")
        .append(Svg.esc(r.meta().started())).append("</title>\n<style>body{font-family:sans-serif;max-width:1100px;"
            + "margin:2em auto;padding:0 1em} img{max-width:100%;border:1px solid #ddd;margin:.5em 0} "
            + "table{border-collapse:collapse;margin:.5em 0 1em;font-size:13px} th,td{border:1px solid #ddd;"
            + "padding:3px 7px} th{background:#f3f3f3} td.num,th.num{text-align:right} "
            + "blockquote{margin:.5em 0;padding:.2em 1em;border-left:3px solid #ccc;color:#444;font-size:13px} "
            + "code{background:#f3f3f3;padding:0 2px}</style></head><body>\n");
    s.append("<h1>Strand bench</h1>\n<p>Preset <b>").append(Svg.esc(r.meta().preset())).append("</b>, ")
        .append(Svg.esc(r.meta().machine())).append(". Client and server share this machine. Data: "
            + "<a href=\"results.json\">results.json</a>, <a href=\"results.csv\">results.csv</a>, "
            + "<a href=\"report.md\">report.md</a>.</p>\n");
    for (String chart : charts) {
      s.append("<p><img src=\"").append(chart).append("\" alt=\"").append(chart).append("\"></p>\n");
    }
    s.append("<h2>Report</h2>\n").append(MarkdownHtml.render(markdown)).append("</body></html>\n");
    return s.toString();
  }

  private static String num(Double v) {
    if (v == null) {
      return "—";
    }
    return v >= 100 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.1f", v);
  }

  private static String ms(Double v) {
    return v == null ? "—" : v >= 10 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v);
  }

  private static String ratio(Double a, Double b) {
    return a == null || b == null || b == 0 ? "—" : String.format(Locale.ROOT, "%.2f×", a / b);
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.2f", v);
  }

  private static String raw(Double v) {
    return v == null ? "" : String.format(Locale.ROOT, "%.3f", v);
  }

  private static String cell(String s) {
    return s == null ? "" : s.replace("|", "\\|").replace("\n", " ");
  }

  private static String quote(String s) {
    return s == null ? "" : "\"" + s.replace("\"", "\"\"").replace("\n", " ") + "\"";
  }
}
