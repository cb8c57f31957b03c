package dev.strand.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The targets, checked against one run's cells. A target with nothing to compare (client or level
 * not run, reference tool absent) is "not measured", never "met". Nothing here adjusts a number.
 */
public final class Targets {

  /** One target's verdict: {@code met}, {@code NOT MET} or {@code not measured}, with the numbers behind it. */
  public record Verdict(String target, String verdict, String detail) {}

  static final String MET = "met";
  static final String NOT_MET = "NOT MET";
  static final String NOT_MEASURED = "not measured";
  static final int CONNECTION_SLACK = 4;

  private Targets() {
  }

  /** The fastest measured Java peer (not strand, not strand-sync) in a cell group, or null. */
  static Cell bestPeer(List<Cell> cells, String scenario, int c) {
    return cells.stream()
        .filter(x -> x.scenario().equals(scenario) && x.concurrency() == c && x.kind().equals("java")
            && !x.client().startsWith("strand") && x.measured())
        .max(Comparator.comparingDouble(Cell::rps)).orElse(null);
  }

  static List<Verdict> evaluate(Results r) {
    List<Verdict> out = new ArrayList<>();
    List<Cell> cells = r.cells();
    List<Integer> levels = r.meta().concurrency();
    String small = "/small";

    List<String> peerFails = new ArrayList<>();
    List<String> peerOk = new ArrayList<>();
    List<String> wrkFails = new ArrayList<>();
    List<String> wrkOk = new ArrayList<>();
    for (int c : levels) {
      if (c < 10) {
        continue;
      }
      Cell s = r.find("strand", small, c);
      Cell best = bestPeer(cells, small, c);
      if (s != null && s.measured() && best != null) {
        double ratio = s.rps() / best.rps();
        (ratio >= 1.0 ? peerOk : peerFails).add(String.format("c=%d %.2f× %s", c, ratio, best.client()));
      }
      Cell wrk = r.find("wrk", small, c);
      if (s != null && s.measured() && wrk != null && wrk.measured()) {
        double ratio = s.rps() / wrk.rps();
        (ratio >= 0.7 ? wrkOk : wrkFails).add(String.format("c=%d %.2f×", c, ratio));
      }
    }
    out.add(verdict("strand ≥ 1.0× fastest Java peer on /small, every c ≥ 10", peerOk, peerFails));
    out.add(verdict("strand ≥ 0.7× wrk on /small, every c ≥ 10", wrkOk, wrkFails));

    http2(r, out);
    http3(r, out);

    List<String> delayOk = new ArrayList<>();
    List<String> delayFails = new ArrayList<>();
    for (String scenario : r.meta().scenarios()) {
      double d = Results.delaySeconds(scenario);
      if (d <= 0) {
        continue;
      }
      for (int c : levels) {
        Cell s = r.find("strand", scenario, c);
        if (s != null && s.measured() && c <= 500) {
          double ideal = c / d;
          double ratio = s.rps() / ideal;
          (ratio >= 0.9 ? delayOk : delayFails).add(String.format("%s c=%d %.0f of ideal %.0f (%.0f%%)", scenario, c,
              s.rps(), ideal, ratio * 100));
        }
      }
    }
    out.add(verdict("strand within 10% of ideal on /delay, up to 500 in flight", delayOk, delayFails));
    atScale(r, out);

    for (String client : List.of("strand", "strand-sync")) {
      List<String> ok = new ArrayList<>();
      List<String> bad = new ArrayList<>();
      for (String scenario : r.meta().scenarios()) {
        Cell lo = r.find(client, scenario, 10);
        Cell hi = r.find(client, scenario, 500);
        if (lo != null && hi != null && lo.cpuUsPerRequest() != null && hi.cpuUsPerRequest() != null) {
          double ratio = hi.cpuUsPerRequest() / lo.cpuUsPerRequest();
          (ratio <= 1.3 ? ok : bad).add(String.format("%s %.0f→%.0f µs (%.2f×)", scenario, lo.cpuUsPerRequest(),
              hi.cpuUsPerRequest(), ratio));
        }
      }
      out.add(verdict(client + ": CPU µs/request at c=500 ≤ 1.3× at c=10", ok, bad));
    }

    List<String> syncOk = new ArrayList<>();
    List<String> syncBad = new ArrayList<>();
    List<String> levelOk = new ArrayList<>();
    List<String> levelBad = new ArrayList<>();
    for (String scenario : r.meta().scenarios()) {
      for (int c : levels) {
        Cell a = r.find("strand", scenario, c);
        Cell s = r.find("strand-sync", scenario, c);
        if (a != null && s != null && a.measured() && s.measured()) {
          double ratio = s.rps() / a.rps();
          String cell = String.format("%s c=%d %.2f×", scenario, c, ratio);
          (ratio >= 0.8 ? syncOk : syncBad).add(cell);
          (ratio >= BLOCKING_VS_ASYNC ? levelOk : levelBad).add(cell);
        }
      }
    }
    out.add(verdict("strand-sync (virtual threads) ≥ 0.8× strand async", syncOk, syncBad));
    out.add(verdict(BLOCKING_LEVEL, levelOk, levelBad));
    bothEnds(r, out);

    List<String> errOk = new ArrayList<>();
    List<String> errBad = new ArrayList<>();
    List<String> connOk = new ArrayList<>();
    List<String> connBad = new ArrayList<>();
    for (Cell x : cells) {
      if (!x.client().equals("strand") && !x.client().equals("strand-sync")) {
        continue;
      }
      if (x.notApplicable()) {
        continue;
      }
      String where = x.client() + " " + x.scenario() + " c=" + x.concurrency();
      if (x.status().equals("failed")) {
        errBad.add(where + " failed: " + x.error());
        continue;
      }
      (x.errors() == 0 ? errOk : errBad).add(where + (x.errors() == 0 ? "" : " " + x.errors() + " errors: " + x.error()));
      if (x.connections() != null && !Scenario.of(x.scenario()).handshake()) {
        (x.connections() <= x.concurrency() + CONNECTION_SLACK ? connOk : connBad)
            .add(where + " " + x.connections() + " connections");
      }
    }
    out.add(verdict("strand, strand-sync: zero errors", errOk, errBad));
    out.add(verdict("strand, strand-sync: connections accepted ≤ concurrency + " + CONNECTION_SLACK, connOk, connBad));
    return out;
  }

  // Fastest at both ends: one call in flight to five hundred, blocking as fast as async, h2c near h2load.
  static final double PEER_MARGIN = 1.2;
  static final double BLOCKING_VS_WRK_AT_1 = 0.6;
  static final double BLOCKING_VS_ASYNC = 0.95;
  static final double H2C_VS_H2LOAD = 0.8;
  static final double H2C_CPU_US_AT_100 = 6;
  static final String PEER_AT_EVERY_LEVEL = "strand and strand-sync ≥ 1.2× the fastest Java peer on /small, every c";
  static final String BLOCKING_VS_WRK = "strand-sync ≥ 0.6× wrk on /small at 1 in flight";
  static final String BLOCKING_LEVEL = "strand-sync ≥ 0.95× strand async, every scenario and c";
  static final String H2C_VS_H2LOAD_AT_10_100 = "strand h2c ≥ 0.8× h2load at 10 and 100 streams";
  static final String H2C_CPU = "strand h2c client CPU ≤ 6 µs per request at 100 streams";

  /** The bars at both ends of the range, beside the older, lower ones above: each its own verdict. */
  private static void bothEnds(Results r, List<Verdict> out) {
    List<String> peerOk = new ArrayList<>();
    List<String> peerBad = new ArrayList<>();
    for (int c : r.meta().concurrency()) {
      Cell best = bestPeer(r.cells(), "/small", c);
      for (String client : List.of("strand", "strand-sync")) {
        Cell s = r.find(client, "/small", c);
        if (s != null && s.measured() && best != null) {
          double ratio = s.rps() / best.rps();
          (ratio >= PEER_MARGIN ? peerOk : peerBad).add(String.format("%s c=%d %.2f× %s", client, c, ratio,
              best.client()));
        }
      }
    }
    out.add(verdict(PEER_AT_EVERY_LEVEL, peerOk, peerBad));

    List<String> wrkOk = new ArrayList<>();
    List<String> wrkBad = new ArrayList<>();
    Cell sync = r.find("strand-sync", "/small", 1);
    Cell wrk = r.find("wrk", "/small", 1);
    if (sync != null && sync.measured() && wrk != null && wrk.measured()) {
      double ratio = sync.rps() / wrk.rps();
      (ratio >= BLOCKING_VS_WRK_AT_1 ? wrkOk : wrkBad).add(String.format("c=1 %.0f vs %.0f req/s = %.2f×",
          sync.rps(), wrk.rps(), ratio));
    }
    out.add(verdict(BLOCKING_VS_WRK, wrkOk, wrkBad));

    List<String> h2loadOk = new ArrayList<>();
    List<String> h2loadBad = new ArrayList<>();
    for (int c : List.of(10, H2_TARGET_STREAMS)) {
      Cell s = r.find("strand", "h2c", c);
      Cell ref = r.find("h2load", "h2c", c);
      if (s != null && s.measured() && ref != null && ref.measured()) {
        double ratio = s.rps() / ref.rps();
        (ratio >= H2C_VS_H2LOAD ? h2loadOk : h2loadBad).add(String.format("c=%d %.0f vs %.0f req/s = %.2f×", c,
            s.rps(), ref.rps(), ratio));
      }
    }
    out.add(verdict(H2C_VS_H2LOAD_AT_10_100, h2loadOk, h2loadBad));

    List<String> cpuOk = new ArrayList<>();
    List<String> cpuBad = new ArrayList<>();
    Cell h2c = r.find("strand", "h2c", H2_TARGET_STREAMS);
    if (h2c != null && h2c.measured() && h2c.cpuUsPerRequest() != null) {
      (h2c.cpuUsPerRequest() <= H2C_CPU_US_AT_100 ? cpuOk : cpuBad).add(String.format("c=100 %.1f µs",
          h2c.cpuUsPerRequest()));
    }
    out.add(verdict(H2C_CPU, cpuOk, cpuBad));
  }

  /** The Java clients that speak HTTP/2, which strand's h2 must match or beat. */
  static final List<String> H2_PEERS = List.of("jdk", "okhttp", "jetty", "reactor", "vertx");
  static final int H2_TARGET_STREAMS = 100;

  private static void http2(Results r, List<Verdict> out) {
    String h2 = "h2";
    if (!r.meta().scenarios().contains(h2)) {
      out.add(new Verdict("strand h2 ≥ 0.6× h2load at 100 streams", NOT_MEASURED, "no h2 scenario in this run"));
      out.add(new Verdict("strand h2 ≥ every Java HTTP/2 peer", NOT_MEASURED, "no h2 scenario in this run"));
      return;
    }
    List<String> ok = new ArrayList<>();
    List<String> bad = new ArrayList<>();
    Cell s = r.find("strand", h2, H2_TARGET_STREAMS);
    Cell ref = r.find("h2load", h2, H2_TARGET_STREAMS);
    if (s != null && ref != null && ref.measured()) {
      if (!s.measured()) {
        bad.add("strand c=100 " + s.status() + ": " + s.error());
      } else {
        double ratio = s.rps() / ref.rps();
        (ratio >= 0.6 ? ok : bad).add(String.format("c=100 %.0f vs %.0f req/s = %.2f×", s.rps(), ref.rps(), ratio));
      }
    }
    out.add(verdict("strand h2 ≥ 0.6× h2load at 100 streams", ok, bad));

    List<String> peerOk = new ArrayList<>();
    List<String> peerBad = new ArrayList<>();
    for (int c : r.meta().concurrency()) {
      Cell st = r.find("strand", h2, c);
      for (String peer : H2_PEERS) {
        Cell p = r.find(peer, h2, c);
        if (p == null || !p.measured()) {
          continue;
        }
        if (st == null || !st.measured()) {
          peerBad.add(String.format("c=%d strand %s, %s %.0f", c, st == null ? "missing" : st.status(), peer,
              p.rps()));
          continue;
        }
        double ratio = st.rps() / p.rps();
        (ratio >= 1.0 ? peerOk : peerBad).add(String.format("c=%d %.2f× %s", c, ratio, peer));
      }
    }
    out.add(verdict("strand h2 ≥ every Java HTTP/2 peer (jdk, okhttp, jetty, reactor, vertx), each c", peerOk,
        peerBad));
  }

  static final String H3_VS_JETTY = "strand h3 ≥ 1.5× Jetty's HTTP/3 client, each c";
  static final String H3_VS_H2 = "strand h3 ≥ 0.5× strand h2, each c";
  static final double H3_VS_H2_AT_100 = 0.6;
  static final String H3_AT_100 = "strand h3 ≥ 0.6× strand h2 at 100 streams (testkit server)";

  /** One server's HTTP/3 scenario, its HTTP/2 scenario, and how its cells are labelled in a verdict. */
  private record Http3Scenarios(String h3, String h2, String label) {}

  /**
   * HTTP/3's two bars: ahead of the one Java peer with HTTP/3, and not far behind strand's own HTTP/2; on the
   * testkit's servers ({@code h3} beside {@code h2}) and on Caddy ({@code caddy-h3} beside {@code caddy-h2}),
   * whichever the run has.
   */
  private static void http3(Results r, List<Verdict> out) {
    List<String> jettyOk = new ArrayList<>();
    List<String> jettyBad = new ArrayList<>();
    List<String> h2Ok = new ArrayList<>();
    List<String> h2Bad = new ArrayList<>();
    List<String> h2At100Ok = new ArrayList<>();
    List<String> h2At100Bad = new ArrayList<>();
    List<Http3Scenarios> servers =
        List.of(new Http3Scenarios("h3", "h2", ""), new Http3Scenarios("caddy-h3", "caddy-h2", "Caddy "));
    for (Http3Scenarios sc : servers) {
      String server = sc.label();
      for (int c : r.meta().concurrency()) {
        Cell h3 = r.find("strand", sc.h3(), c);
        if (h3 == null || !h3.measured()) {
          continue;
        }
        Cell jetty = r.find("jetty", sc.h3(), c);
        if (jetty != null && jetty.measured()) {
          double ratio = h3.rps() / jetty.rps();
          (ratio >= 1.5 ? jettyOk : jettyBad).add(String.format("%sc=%d %.0f vs %.0f req/s = %.2f×", server, c,
              h3.rps(), jetty.rps(), ratio));
        }
        Cell h2 = r.find("strand", sc.h2(), c);
        if (h2 != null && h2.measured()) {
          double ratio = h3.rps() / h2.rps();
          String cell = String.format("%sc=%d %.0f vs %.0f req/s = %.2f×", server, c, h3.rps(), h2.rps(), ratio);
          (ratio >= 0.5 ? h2Ok : h2Bad).add(cell);
          if (c == H2_TARGET_STREAMS && sc.h3().equals("h3")) {
            (ratio >= H3_VS_H2_AT_100 ? h2At100Ok : h2At100Bad).add(cell);
          }
        }
      }
    }
    out.add(verdict(H3_VS_JETTY, jettyOk, jettyBad));
    out.add(verdict(H3_VS_H2, h2Ok, h2Bad));
    out.add(verdict(H3_AT_100, h2At100Ok, h2At100Bad));
  }

  /**
   * Beyond 500 in flight on a {@code /delay} server (the seeds' 1,000, the scale preset's 100,000 streams and
   * 30,000 connections): strand's rate against the ideal, and, where memory was measured, its memory against
   * the most frugal Java peer that measured the same cell: per request the caller has in flight, and per request
   * the server had in hand (per open connection or stream carrying one), each its own verdict.
   */
  private static void atScale(Results r, List<Verdict> out) {
    List<String> rateOk = new ArrayList<>();
    List<String> rateBad = new ArrayList<>();
    List<String> memoryOk = new ArrayList<>();
    List<String> memoryBad = new ArrayList<>();
    List<String> servedOk = new ArrayList<>();
    List<String> servedBad = new ArrayList<>();
    for (String scenario : r.meta().scenarios()) {
      double d = Results.delaySeconds(scenario);
      if (d <= 0) {
        continue;
      }
      for (int c : r.meta().concurrency()) {
        Cell s = r.find("strand", scenario, c);
        if (c <= 500 || s == null || !s.measured()) {
          continue;
        }
        double ratio = s.rps() / (c / d);
        (ratio >= 0.9 ? rateOk : rateBad).add(String.format("%s c=%d %.2f×", scenario, c, ratio));
        compareMemory(r, s, Memory::liveBytesPerRequest, memoryOk, memoryBad);
        compareMemory(r, s, Memory::liveBytesPerServerRequest, servedOk, servedBad);
      }
    }
    out.add(verdict("strand ≥ 0.9× ideal on /delay beyond 500 in flight", rateOk, rateBad));
    out.add(verdict("strand's heap + direct memory per request in flight ≤ the most frugal Java peer's, beyond 500",
        memoryOk, memoryBad));
    out.add(verdict("strand's heap + direct memory per request at the server (open connection or stream) ≤ the most "
        + "frugal Java peer's, beyond 500", servedOk, servedBad));
  }

  /** Strand's cell {@code s} against the Java peer of the same cell with the least memory by {@code perRequest}. */
  private static void compareMemory(Results r, Cell s, java.util.function.Function<Memory, Double> perRequest,
      List<String> ok, List<String> bad) {
    Double mine = s.memory() == null ? null : perRequest.apply(s.memory());
    Cell frugal = r.cells().stream()
        .filter(x -> x.scenario().equals(s.scenario()) && x.concurrency() == s.concurrency()
            && x.kind().equals("java") && !x.client().startsWith("strand") && x.measured() && x.memory() != null
            && perRequest.apply(x.memory()) != null)
        .min(Comparator.comparingDouble(x -> perRequest.apply(x.memory()))).orElse(null);
    if (mine != null && frugal != null) {
      double theirs = perRequest.apply(frugal.memory());
      (mine <= theirs ? ok : bad).add(String.format(java.util.Locale.ROOT, "%s c=%d %.2f KiB vs %s %.2f KiB", s.scenario(), s.concurrency(),
          mine / 1024, frugal.client(), theirs / 1024));
    }
  }

  private static Verdict verdict(String target, List<String> ok, List<String> bad) {
    if (ok.isEmpty() && bad.isEmpty()) {
      return new Verdict(target, NOT_MEASURED, "nothing to compare in this run");
    }
    if (bad.isEmpty()) {
      return new Verdict(target, MET, summarize(ok));
    }
    return new Verdict(target, NOT_MET, "missed: " + summarize(bad) + (ok.isEmpty() ? "" : "; met: " + summarize(ok)));
  }

  private static String summarize(List<String> items) {
    List<String> shown = items.stream().filter(Objects::nonNull).limit(8).toList();
    return String.join("; ", shown) + (items.size() > shown.size() ? "; … (" + items.size() + " in all)" : "");
  }
}
