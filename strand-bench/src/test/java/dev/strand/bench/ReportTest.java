package dev.strand.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {

  static Cell ok(String client, String kind, String scenario, int c, double rps, double cpu, long conns) {
    return Cell.measured(client, kind, scenario, c, List.of(rps * 0.98, rps, rps * 1.01), 1000, 0, null, cpu, 1.0,
        2.0, conns);
  }

  /** A ten-minute run on 2 cores with 3 batches of 1 s: what a test needs to vary, the rest fixed. */
  static Results.Meta meta(String preset, List<String> scenarios, List<Integer> concurrency, List<String> clients,
      List<String> notes) {
    return new Results.Meta("2026-01-01T00:00:00Z", "2026-01-01T00:10:00Z", preset, "2 cores", "java 21", "embedded",
        true, scenarios, concurrency, clients, 1, 1, 1, 3, 30, 1, notes);
  }

  /** Each verdict by the target it judges. */
  static Map<String, Targets.Verdict> byTarget(List<Targets.Verdict> verdicts) {
    Map<String, Targets.Verdict> v = new java.util.HashMap<>();
    for (Targets.Verdict t : verdicts) {
      v.put(t.target(), t);
    }
    return v;
  }

  static Results sample() {
    List<Cell> cells = List.of(
        ok("strand", "java", "/small", 10, 20_000, 40, 10),
        ok("strand", "java", "/small", 500, 21_000, 45, 503),
        ok("strand-sync", "java", "/small", 10, 15_000, 60, 10),
        ok("strand-sync", "java", "/small", 500, 18_000, 90, 600),
        ok("jdk", "java", "/small", 10, 18_000, 50, 10),
        ok("jdk", "java", "/small", 500, 25_000, 45, 500),
        Cell.failed("okhttp", "java", "/small", 10, "java.io.IOException: boom"),
        Cell.failed("okhttp", "java", "/small", 500, "java.io.IOException: boom"),
        ok("wrk", "reference", "/small", 10, 25_000, 10, 40),
        ok("wrk", "reference", "/small", 500, 26_000, 10, 2000));
    Results.Meta meta = meta("quick", List.of("/small"), List.of(10, 500),
        List.of("strand", "strand-sync", "jdk", "okhttp", "wrk"), List.of("a note"));
    Results partial = new Results(meta, cells, List.of(new DefaultsProbe.Defaults("jdk", "JDK 21", "none",
        "none", "unbounded", "NEVER", "still waiting after 8 s (watchdog)")), List.of(), Map.of("strand", "setup"));
    return new Results(meta, cells, partial.defaults(), Targets.evaluate(partial), partial.setups());
  }

  /**
   * A cell whose server told its CPU time shows it per request and the cores client and server kept busy
   * together; one without shows neither, and the CSV carries the figure.
   */
  @Test
  void theServersCpuStandsBesideTheClients(@TempDir Path dir) throws Exception {
    Cell told = ok("strand", "java", "/small", 10, 50_000, 24, 10).withServerCpu(18.0);
    Cell silent = ok("jdk", "java", "/small", 10, 20_000, 50, 10);
    Results r = new Results(meta("quick", List.of("/small"), List.of(10), List.of("strand", "jdk"), List.of()),
        List.of(told, silent), List.of(), List.of(), Map.of());

    String md = Report.markdown(r);
    assertTrue(md.contains("| strand | 10 | 50,000 | 49,000–50,500 | 24.0 | 18.0 | 2.10 |"), md);
    assertTrue(md.contains("| jdk | 10 | 20,000 | 19,600–20,200 | 50.0 | — | — |"), md);

    Report.write(r, dir);
    List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
    assertTrue(csv.get(0).contains(",cpu_us_per_request,server_cpu_us_per_request,"), csv.get(0));
    assertTrue(csv.get(1).startsWith("strand,java,/small,10,ok,50000.000,49000.000,50500.000,24.000,18.000,"),
        csv.get(1));
    assertEquals(18.0, Report.read(dir.resolve("results.json")).cells().get(0).serverCpuUsPerRequest());
  }

  @Test
  void everyOutputIsWrittenAndParses(@TempDir Path dir) throws Exception {
    Results r = sample();
    String md = Report.write(r, dir);

    Results back = Report.read(dir.resolve("results.json"));
    assertEquals(r.cells(), back.cells());
    assertEquals(r.targets(), back.targets());
    assertEquals(r.meta(), back.meta());

    List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
    assertEquals(1 + r.cells().size(), csv.size());
    assertTrue(csv.get(0).startsWith("client,kind,scenario,concurrency,status,rps"));
    assertTrue(csv.stream().anyMatch(l -> l.startsWith("okhttp,java,/small,10,failed,") && l.contains("boom")));

    var xml = DocumentBuilderFactory.newInstance().newDocumentBuilder();
    for (String svg : List.of("rps-small.svg", "cpu-small.svg")) {
      var doc = xml.parse(dir.resolve(svg).toFile());
      assertEquals("svg", doc.getDocumentElement().getNodeName());
      assertTrue(doc.getElementsByTagName("polyline").getLength() >= 4, svg);
    }
    String html = Files.readString(dir.resolve("index.html"));
    assertTrue(html.contains("src=\"rps-small.svg\"") && html.contains("src=\"cpu-small.svg\""));
    assertTrue(html.contains("<th class=\"num\">c</th>") && html.contains("<td>okhttp</td>"), "tables as HTML");
    assertTrue(!html.contains("<pre>") && !html.contains("| okhttp |"), "no markdown source on the page");
    assertTrue(html.contains("<blockquote>\n<p>a note</p>"), html);

    assertTrue(md.contains("| okhttp | 10 | — |") && md.contains("**failed**: java.io.IOException: boom"), md);
    assertTrue(md.contains("Client and server share this machine"));
    assertTrue(md.contains("still waiting after 8 s"));
  }

  @Test
  void aClientThatDoesNotSpeakTheProtocolHasNoLineButAFailedOneSaysSo(@TempDir Path dir) throws Exception {
    List<Cell> cells = List.of(
        ok("strand", "java", "h2c", 10, 20_000, 40, 1),
        Cell.notApplicable("jdk", "java", "h2c", 10, "no prior-knowledge h2c"),
        Cell.failed("okhttp", "java", "h2c", 10, "java.io.IOException: boom"));
    Results r = new Results(meta("quick", List.of("h2c"), List.of(10), List.of("strand", "jdk", "okhttp"),
        List.of()), cells, List.of(), List.of(), Map.of());
    Report.write(r, dir);
    String svg = Files.readString(dir.resolve("rps-h2c.svg"));
    assertTrue(svg.contains(">strand<") && svg.contains(">okhttp (failed)<"), svg);
    assertTrue(!svg.contains("jdk"), svg);
    assertTrue(Files.readString(dir.resolve("report.md")).contains("no prior-knowledge h2c"));
  }

  @Test
  void aDelayedScenarioDrawsTheIdealLineInItsRateChartOnly(@TempDir Path dir) throws Exception {
    List<Cell> cells = List.of(
        ok("strand", "java", "/delay/50", 10, 190, 40, 10),
        ok("strand", "java", "/delay/50", 100, 1_950, 40, 100),
        ok("strand", "java", "/small", 10, 20_000, 40, 10),
        ok("strand", "java", "/small", 100, 30_000, 40, 100));
    Results r = new Results(meta("seeds", List.of("/delay/50", "/small"), List.of(10, 100), List.of("strand"),
        List.of()), cells, List.of(), List.of(), Map.of());
    Report.write(r, dir);
    String delayed = Files.readString(dir.resolve("rps-delay-50.svg"));
    assertTrue(delayed.contains(">ideal (c ÷ 50 ms)<") && delayed.contains(">strand<"), delayed);
    assertTrue(!Files.readString(dir.resolve("cpu-delay-50.svg")).contains("ideal"));
    assertTrue(!Files.readString(dir.resolve("rps-small.svg")).contains("ideal"));
  }

  @Test
  void markdownBecomesHtml() {
    assertEquals("<h2>A <code>b</code></h2>\n<p>one <b>two</b> <a href=\"x.md\">three</a> &lt;4&gt;</p>\n"
        + "<ul>\n<li>five</li>\n</ul>\n<table>\n<thead><tr><th>k</th><th class=\"num\">n</th></tr></thead>\n"
        + "<tbody>\n<tr><td>a</td><td class=\"num\">1</td></tr>\n</tbody>\n</table>\n",
        MarkdownHtml.render("## A `b`\n\none **two**\n[three](x.md) <4>\n- five\n\n| k | n |\n|---|---:|\n| a | 1 |\n"));
  }

  @Test
  void targetsAreJudgedFromTheNumbersAndMissingDataIsNotMet() {
    Map<String, Targets.Verdict> v = byTarget(sample().targets());
    // strand 21k vs jdk 25k at c=500: not met, and the report says by how much.
    Targets.Verdict peer = v.get("strand ≥ 1.0× fastest Java peer on /small, every c ≥ 10");
    assertEquals("NOT MET", peer.verdict());
    assertTrue(peer.detail().contains("c=500 0.84× jdk"), peer.detail());
    assertEquals("met", v.get("strand ≥ 0.7× wrk on /small, every c ≥ 10").verdict());
    assertEquals("not measured", v.get("strand within 10% of ideal on /delay, up to 500 in flight").verdict());
    assertEquals("met", v.get("strand: CPU µs/request at c=500 ≤ 1.3× at c=10").verdict());
    assertEquals("NOT MET", v.get("strand-sync: CPU µs/request at c=500 ≤ 1.3× at c=10").verdict());
    assertEquals("NOT MET", v.get("strand, strand-sync: connections accepted ≤ concurrency + 4").verdict());
    assertEquals("met", v.get("strand, strand-sync: zero errors").verdict());
  }

  @Test
  void theBarsAtBothEndsAreJudgedEachFromItsOwnCells() {
    List<Cell> cells = List.of(
        ok("strand", "java", "/small", 1, 15_000, 37, 1),
        ok("strand-sync", "java", "/small", 1, 12_500, 30, 1),
        ok("helidon", "java", "/small", 1, 12_000, 40, 1),
        ok("wrk", "reference", "/small", 1, 16_000, 20, 1),
        ok("strand", "java", "/small", 10, 120_000, 11, 10),
        ok("strand-sync", "java", "/small", 10, 118_000, 13, 10),
        ok("vertx", "java", "/small", 10, 98_000, 14, 10),
        ok("strand", "java", "h2c", 10, 60_000, 11, 1),
        ok("strand-sync", "java", "h2c", 10, 56_000, 18, 1),
        ok("h2load", "reference", "h2c", 10, 80_000, 5, 1),
        ok("strand", "java", "h2c", 100, 160_000, 6.5, 1),
        ok("strand-sync", "java", "h2c", 100, 140_000, 6.4, 1),
        ok("h2load", "reference", "h2c", 100, 190_000, 5, 1),
        ok("strand", "java", "h2", 100, 150_000, 5, 1),
        ok("strand", "java", "h3", 100, 91_000, 17, 1));
    Results.Meta meta = meta("default", List.of("/small", "h2c", "h2", "h3"), List.of(1, 10, 100),
        List.of("strand", "strand-sync", "helidon", "vertx", "wrk", "h2load"), List.of());
    Map<String, Targets.Verdict> v =
        byTarget(Targets.evaluate(new Results(meta, cells, List.of(), List.of(), Map.of())));
    Targets.Verdict peer = v.get(Targets.PEER_AT_EVERY_LEVEL);
    assertEquals("NOT MET", peer.verdict(), "blocking at 1 in flight is 12,500 against Helidon's 12,000");
    assertTrue(peer.detail().startsWith("missed: strand-sync c=1 1.04× helidon; met: strand c=1 1.25× helidon; "
        + "strand c=10 1.22× vertx; strand-sync c=10 1.20× vertx"), peer.detail());
    assertEquals("met", v.get(Targets.BLOCKING_VS_WRK).verdict(), "12,500 of wrk's 16,000 is 0.78×");
    Targets.Verdict level = v.get(Targets.BLOCKING_LEVEL);
    assertEquals("NOT MET", level.verdict());
    assertTrue(level.detail().startsWith("missed: /small c=1 0.83×; h2c c=10 0.93×; h2c c=100 0.88×; met: "
        + "/small c=10 0.98×"), level.detail());
    Targets.Verdict h2load = v.get(Targets.H2C_VS_H2LOAD_AT_10_100);
    assertEquals("NOT MET", h2load.verdict());
    assertEquals("missed: c=10 60000 vs 80000 req/s = 0.75×; met: c=100 160000 vs 190000 req/s = 0.84×",
        h2load.detail());
    assertEquals("NOT MET", v.get(Targets.H2C_CPU).verdict(), "6.5 µs is over the 6 µs bar");
    Targets.Verdict h3 = v.get(Targets.H3_AT_100);
    assertEquals("met", h3.verdict(), "91,000 of HTTP/2's 150,000 is 0.61×");
    assertEquals("c=100 91000 vs 150000 req/s = 0.61×", h3.detail());
  }

  @Test
  void atScaleTheRateIsJudgedAgainstTheIdealAndMemoryAgainstTheMostFrugalPeer(@TempDir Path dir) throws Exception {
    String h2c = "h2c:/delay/5000";
    // Vert.x and Jetty queue requests of their own: the server holds fewer of theirs than they have in flight.
    List<Cell> cells = List.of(
        ok("strand", "java", h2c, 100_000, 19_000, 40, 100).withMemory(new Memory(100_000, 95_000, 200_000_000,
            10_000_000, 900_000_000)),
        ok("vertx", "java", h2c, 100_000, 12_000, 60, 100).withMemory(new Memory(100_000, 60_000, 150_000_000, 0,
            800_000_000)),
        ok("jetty", "java", h2c, 100_000, 9_000, 80, 100).withMemory(new Memory(100_000, 45_000, 400_000_000, 0,
            1_000_000_000)),
        ok("aiohttp", "reference", "/delay/1000", 30_000, 20_000, 80, 30_000)
            .withMemory(new Memory(30_000, 20_000, -1, -1, 300_000_000)),
        ok("strand", "java", "/delay/1000", 30_000, 26_000, 30, 30_000));
    Results.Meta meta = meta("scale", List.of(h2c, "/delay/1000"), List.of(30_000, 100_000),
        List.of("strand", "vertx", "jetty", "aiohttp"), List.of());
    Results partial = new Results(meta, cells, List.of(), List.of(), Map.of());
    Map<String, Targets.Verdict> v = byTarget(Targets.evaluate(partial));
    Targets.Verdict rate = v.get("strand ≥ 0.9× ideal on /delay beyond 500 in flight");
    assertEquals("NOT MET", rate.verdict(), "26,000 of an ideal 30,000 is 0.87×");
    assertTrue(rate.detail().contains("h2c:/delay/5000 c=100000 0.95×"), rate.detail());
    assertTrue(rate.detail().contains("/delay/1000 c=30000 0.87×"), rate.detail());
    Targets.Verdict memory = v.get(
        "strand's heap + direct memory per request in flight ≤ the most frugal Java peer's, beyond 500");
    assertEquals("NOT MET", memory.verdict(), "2,100 bytes per stream against Vert.x's 1,500");
    assertTrue(memory.detail().contains("vertx 1.46 KiB"), memory.detail());
    Targets.Verdict served = v.get("strand's heap + direct memory per request at the server (open connection or "
        + "stream) ≤ the most frugal Java peer's, beyond 500");
    assertEquals("met", served.verdict(), "2,211 bytes per open stream against Vert.x's 2,500");
    assertTrue(served.detail().contains("h2c:/delay/5000 c=100000 2.16 KiB vs vertx 2.44 KiB"), served.detail());

    String md = Report.write(new Results(meta, cells, List.of(), Targets.evaluate(partial), Map.of()), dir);
    assertTrue(md.contains("| strand | 100000 | 1.95 | 0.10 | 2.05 | 8.79 | 95,000 | 2.16 | 9.25 | 0.95× |"), md);
    assertTrue(md.contains("| aiohttp | 30000 | — | — | — | 9.77 | 20,000 | — | 14.65 | 0.67× |"),
        "a Python client has only its resident set");
  }

  @Test
  void http3IsJudgedAgainstJettyAndStrandsOwnHttp2() {
    List<Cell> cells = List.of(
        ok("strand", "java", "h3", 1, 9_000, 80, 1),
        ok("strand", "java", "h3", 10, 15_000, 60, 1),
        ok("jetty", "java", "h3", 1, 600, 2000, 1),
        ok("jetty", "java", "h3", 10, 12_000, 100, 1),
        ok("strand", "java", "h2", 1, 12_000, 50, 1),
        ok("strand", "java", "h2", 10, 40_000, 20, 1),
        ok("strand", "java", "caddy-h3", 10, 8_000, 90, 1),
        ok("strand", "java", "caddy-h2", 10, 9_000, 80, 1));
    Results.Meta meta = meta("default", List.of("h2", "h3"), List.of(1, 10), List.of("strand", "jetty"), List.of());
    Map<String, Targets.Verdict> v =
        byTarget(Targets.evaluate(new Results(meta, cells, List.of(), List.of(), Map.of())));
    Targets.Verdict jetty = v.get(Targets.H3_VS_JETTY);
    assertEquals("NOT MET", jetty.verdict());
    assertTrue(jetty.detail().contains("c=10 15000 vs 12000 req/s = 1.25×"), jetty.detail());
    assertTrue(jetty.detail().contains("met: c=1 9000 vs 600 req/s = 15.00×"), jetty.detail());
    Targets.Verdict h2 = v.get(Targets.H3_VS_H2);
    assertEquals("NOT MET", h2.verdict());
    assertTrue(h2.detail().contains("c=10 15000 vs 40000 req/s = 0.38×"), h2.detail());
    assertTrue(h2.detail().contains("met: c=1 9000 vs 12000 req/s = 0.75×; Caddy c=10 8000 vs 9000 req/s = 0.89×"),
        h2.detail());
  }

  @Test
  void aCellWithoutSuccessesIsFailedNotZero() {
    Cell c = Cell.measured("x", "java", "/small", 10, List.of(0.0, 0.0), 0, 12, "boom", null, null, null, null);
    assertEquals("failed", c.status());
    assertEquals(12, c.errors());
    assertNull(c.rps());
  }
}
