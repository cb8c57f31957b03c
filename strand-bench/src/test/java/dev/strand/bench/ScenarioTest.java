package dev.strand.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.bench.clients.Clients;
import dev.strand.bench.clients.Wire;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScenarioTest {

  @Test
  void namesMapToWiresAndPathsGetASlash() {
    assertEquals(List.of("/small", "https", "h2", "h2c", "handshake-jdk", "full-handshake-jdk", "handshake-openssl",
            "full-handshake-openssl", "/delay/50"),
        Scenario.normalize(List.of("small", "https", "h2", "h2c", "handshake", "/delay/50")));
    assertEquals(Wire.H2_TLS, Scenario.of("h2").wire());
    assertEquals("/small", Scenario.of("h2").path());
    assertEquals(Wire.H1_TLS, Scenario.of("https").wire());
    assertEquals(Wire.H2C, Scenario.of("h2c").wire());
    assertEquals("openssl", Scenario.of("handshake-openssl").engine());
    assertTrue(Scenario.of("handshake-jdk").handshake());
    assertTrue(Scenario.of("handshake-jdk").resumption());
    assertFalse(Scenario.of("full-handshake-openssl").resumption());
    assertEquals("openssl", Scenario.of("full-handshake-openssl").engine());
    assertFalse(Scenario.of("/small").needsTlsServers());
  }

  @Test
  void clientsThatCannotSpeakAScenarioSayWhy() {
    URI url = URI.create("https://127.0.0.1:1/small");
    assertTrue(BenchMain.notApplicable("wrk", Scenario.of("h2"), url).contains("HTTP/1.1 only"));
    assertEquals(null, BenchMain.notApplicable("wrk", Scenario.of("https"), url));
    assertEquals(null, BenchMain.notApplicable("h2load", Scenario.of("h2"), url));
    assertTrue(BenchMain.notApplicable("h2load", Scenario.of("https"), url).contains("HTTP/2"));
    assertTrue(BenchMain.notApplicable("helidon", Scenario.of("h2"), url).contains("helidon-webclient-http2"));
    assertTrue(BenchMain.notApplicable("jdk", Scenario.of("h2c"), url).contains("prior-knowledge"));
    assertEquals(null, BenchMain.notApplicable("jdk", Scenario.of("h2"), url));
    assertTrue(BenchMain.notApplicable("strand", Scenario.of("h2"), null).contains("embedded server"));
    assertEquals(null, Clients.unsupported("strand", Wire.H1_TLS, true));
    assertTrue(Clients.unsupported("okhttp", Wire.H1_TLS, true).contains("strand"));
  }

  @Test
  void h2loadSpreadsStreamsBeyondOneConnectionsLimitAndWarmsUpOnASlowServer() {
    java.net.URI small = java.net.URI.create("http://127.0.0.1:1/small");
    assertEquals("h2load -c1 -m100 -D2 'http://127.0.0.1:1/small'",
        H2loadRunner.command(small, 100, java.time.Duration.ofSeconds(2)));
    java.net.URI slow = java.net.URI.create("http://127.0.0.1:1/delay/5000");
    assertEquals("h2load -c100 -m1000 -D5 --warm-up-time=10 'http://127.0.0.1:1/delay/5000'",
        H2loadRunner.command(slow, 100_000, java.time.Duration.ofSeconds(5)));
    assertEquals(5.0, Results.delaySeconds("h2c:/delay/5000"), "a NAME:PATH scenario's delay is its path's");
  }

  @Test
  void h2loadSummaryIsParsed() {
    String text = """
        starting benchmark...
        finished in 2.00s, 45123.50 req/s, 5.12MB/s
        requests: 90300 total, 90300 started, 90247 done, 90240 succeeded, 7 failed, 0 errored, 0 timeout
        status codes: 90238 2xx, 0 3xx, 2 4xx, 0 5xx
        traffic: 10.24MB (10737418) total, 1.00MB (1048576) headers (space savings 90.00%), 5.00MB data
                             min         max         mean         sd        +/- sd
        time for request:      110us      5.20ms      2.10ms      1.00ms    68.50%
        0m0.001s 0m0.002s
        0m0.500s 0m0.250s
        """;
    H2loadRunner.Run r = H2loadRunner.parse(text);
    assertEquals(45123.50, r.rps(), 1e-9);
    assertEquals(90238, r.requests());
    assertEquals(9, r.errors()); // 90247 done - 90238 2xx
    assertEquals(0.75, r.cpuSeconds(), 1e-9);
  }
}
