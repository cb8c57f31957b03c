package dev.strand.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole pipeline in seconds: embedded server process, one child JVM per client, report files. Uses the
 * fake client (known latency), a client that cannot start, and one real peer (jdk).
 */
class BenchSmokeTest {

  @Test
  @Timeout(180)
  void smokeRunMeasuresReportsAndKeepsFailedClients(@TempDir Path dir) throws Exception {
    System.setProperty("strand.bench.fake.latencyMicros", "10000");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = BenchMain.run(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        "--clients", "fake,fake-broken,jdk", "--concurrency", "2", "--scenario", "small",
        "--warmup", "0.5", "--rewarm", "0.2", "--duration", "0.5", "--batches", "2", "--no-defaults",
        "--out", dir.toString());
    String stdout = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, stdout + err);

    Results r = Report.read(dir.resolve("results.json"));
    Cell fake = r.find("fake", "/small", 2);
    assertEquals("ok", fake.status(), String.valueOf(fake));
    assertTrue(fake.rps() > 100 && fake.rps() < 210, "fake req/s " + fake.rps()); // ideal 2 / 10 ms = 200

    Cell broken = r.find("fake-broken", "/small", 2);
    assertEquals("failed", broken.status());
    assertTrue(broken.error().contains("fake-broken refuses to start"), broken.error());
    assertTrue(stdout.contains("fake-broken /small c=2: failed"), stdout);

    Cell jdk = r.find("jdk", "/small", 2);
    assertEquals("ok", jdk.status(), String.valueOf(jdk));
    assertEquals(0, jdk.errors());
    assertNotNull(jdk.connections());
    assertTrue(jdk.connections() >= 1 && jdk.connections() <= 2, "connections " + jdk.connections());
    assertTrue(Files.exists(dir.resolve("index.html")) && Files.exists(dir.resolve("rps-small.svg")));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("jdk /small c=2 batch 2/2"), "progress line");
  }

  @Test
  @Timeout(180)
  void repeatRunsEveryClientAgainInReversedOrderAndPairsTheVariant(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = BenchMain.run(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        "--clients", "strand,strand-listener", "--concurrency", "2", "--scenario", "small", "--repeat", "2",
        "--warmup", "0.5", "--rewarm", "0.2", "--duration", "0.5", "--batches", "2", "--no-defaults",
        "--out", dir.toString());
    String stdout = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, stdout);

    Results r = Report.read(dir.resolve("results.json"));
    assertEquals(2, r.meta().repeats());
    assertEquals(List.of("strand", "strand-listener"), r.runs().get(0).stream().map(Cell::client).toList());
    assertEquals(List.of("strand-listener", "strand"), r.runs().get(1).stream().map(Cell::client).toList());
    Cell strand = r.find("strand", "/small", 2);
    assertEquals("ok", strand.status(), String.valueOf(strand));
    assertEquals(List.of(r.runs().get(0).get(0).rps(), r.runs().get(1).get(1).rps()), strand.batchRps());
    assertTrue(Files.exists(dir.resolve("logs/strand-small-run1.log"))
        && Files.exists(dir.resolve("logs/strand-small-run2.log")));
    assertTrue(stdout.contains("median (min–max) over 2 runs"), stdout);
  }

  @Test
  @Timeout(240)
  void flinkCellRunsBothFunctionsAndTheRawClientSideBySide(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = BenchMain.run(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        "--flink", "--warmup", "1", "--duration", "0.5", "--batches", "1", "--out", dir.toString());
    String stdout = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, stdout + err);

    Cell[] cells = Report.json().readValue(dir.resolve("results-flink.json").toFile(), Cell[].class);
    assertEquals(4, cells.length, stdout);
    for (Cell c : cells) {
      assertEquals("ok", c.status(), String.valueOf(c));
      assertEquals(0, c.errors(), String.valueOf(c));
      assertEquals(200, c.concurrency(), String.valueOf(c));
      assertTrue(c.rps() > 0 && c.cpuUsPerRequest() > 0, String.valueOf(c));
    }
    assertEquals(java.util.List.of("flink-strand", "flink-strand-shared", "flink-jdk", "strand"),
        java.util.Arrays.stream(cells).map(Cell::client).toList());
    assertTrue(stdout.contains("| Flink + StrandAsyncFunction |") && stdout.contains("Strand's function vs the "
        + "JDK-client function (records/s):"), stdout);
    assertTrue(Files.exists(dir.resolve("report-flink.md")));
  }

  @Test
  @Timeout(240)
  void httpsAndH2CellsRunWithStrandAndJdkOverVerifiedTls(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = BenchMain.run(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        "--clients", "strand,jdk,helidon", "--concurrency", "2", "--scenario", "https,h2",
        "--warmup", "0.5", "--rewarm", "0.2", "--duration", "0.5", "--batches", "2", "--no-defaults", "--strict",
        "--out", dir.toString());
    String stdout = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, stdout + err);

    Results r = Report.read(dir.resolve("results.json"));
    for (String scenario : new String[] {"https", "h2"}) {
      for (String client : new String[] {"strand", "jdk"}) {
        Cell x = r.find(client, scenario, 2);
        assertNotNull(x, client + " " + scenario);
        assertEquals("ok", x.status(), String.valueOf(x));
        assertEquals(0, x.errors());
        // Counted on the HTTPS server, whose /stats is read over TLS with the bench CA.
        assertNotNull(x.connections(), String.valueOf(x));
        assertTrue(x.connections() >= 1 && x.connections() <= 2, String.valueOf(x));
      }
    }
    // Multiplexed: strand's h2 needs a single connection for 2 streams.
    assertEquals(1L, r.find("strand", "h2", 2).connections());
    Cell helidonH2 = r.find("helidon", "h2", 2);
    assertEquals("n/a", helidonH2.status());
    assertTrue(stdout.contains("n/a (HTTP/2 needs helidon-webclient-http2"), stdout);
    assertTrue(stdout.contains("strand h2 ≥ 0.6× h2load at 100 streams"), stdout);
  }

  @Test
  @Timeout(120)
  void strictModeFailsTheRunWhenAClientFails(@TempDir Path dir) {
    int code = BenchMain.run(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        "--clients", "fake-broken", "--concurrency", "1", "--scenario", "/small", "--warmup", "0.1",
        "--duration", "0.2", "--batches", "1", "--no-defaults", "--strict", "--out", dir.toString());
    assertEquals(1, code);
  }

  @Test
  @Timeout(120)
  void externalServerWithoutStatsIsMeasuredAndSaysSo(@TempDir Path dir) throws Exception {
    byte[] body = "hello from elsewhere".getBytes(StandardCharsets.US_ASCII);
    com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
        new java.net.InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/hello", ex -> {
      ex.sendResponseHeaders(200, body.length);
      ex.getResponseBody().write(body);
      ex.close();
    });
    server.start();
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      int code = BenchMain.run(new PrintStream(out, true, StandardCharsets.UTF_8),
          new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
          "--server", "http://127.0.0.1:" + server.getAddress().getPort(), "--clients", "jdk",
          "--concurrency", "1", "--scenario", "/hello", "--warmup", "0.3", "--duration", "0.3", "--batches", "1",
          "--no-defaults", "--strict", "--out", dir.toString());
      String stdout = out.toString(StandardCharsets.UTF_8);
      assertEquals(0, code, stdout);
      Cell jdk = Report.read(dir.resolve("results.json")).find("jdk", "/hello", 1);
      assertEquals("ok", jdk.status());
      assertEquals(null, jdk.connections());
      assertTrue(stdout.contains("The server has no /stats"), stdout);
    } finally {
      server.stop(0);
    }
  }

  @Test
  void unknownClientIsAUsageError(@TempDir Path dir) {
    int code = BenchMain.run(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        "--clients", "nope", "--out", dir.toString());
    assertEquals(2, code);
  }

  @Test
  @Timeout(120)
  void clientHeapReachesEveryClientJvmAndTheReport(@TempDir Path dir) throws Exception {
    // A heap larger than the JVM's maximum makes the child refuse to start: proof the option reached it.
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = BenchMain.run(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        "--clients", "fake", "--client-heap", "100000g", "--concurrency", "1", "--scenario", "/small",
        "--warmup", "0.1", "--duration", "0.2", "--batches", "1", "--no-defaults", "--out", dir.toString());
    assertEquals(0, code, out.toString(StandardCharsets.UTF_8));
    Cell fake = Report.read(dir.resolve("results.json")).find("fake", "/small", 1);
    assertEquals("failed", fake.status(), String.valueOf(fake));
    assertTrue(Files.readString(dir.resolve("report.md")).contains("-Xms100000g -XX:+AlwaysPreTouch"));
  }

  @Test
  void clientHeapMustBeAHeapSize(@TempDir Path dir) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = BenchMain.run(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        "--clients", "fake", "--client-heap", "1 gig", "--out", dir.toString());
    assertEquals(2, code);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("--client-heap takes a JVM heap size"), err.toString());
  }
}
