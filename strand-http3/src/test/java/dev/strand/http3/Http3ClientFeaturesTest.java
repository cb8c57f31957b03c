package dev.strand.http3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.Client;
import dev.strand.Response;
import dev.strand.Timeout;
import dev.strand.VersionPolicy;
import dev.strand.testkit.Http3TestServer;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** What the client does above the transport works over HTTP/3 unchanged: redirects, decompression, cookies, hooks. */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http3ClientFeaturesTest {
  private static Http3TestServer server;

  @BeforeAll
  static void start() {
    server = Http3Fixture.server(100);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void redirectsDecompressionCookiesAndHooks() {
    List<String> seen = new ArrayList<>();
    try (Client client = Client.builder().tls(Http3Fixture.trustingTestCa()).version(VersionPolicy.HTTP_3_ONLY)
        .timeout(Timeout.of(Duration.ofSeconds(20))).followRedirects(true)
        .onResponse(r -> seen.add(r.status() + " " + r.version())).build()) {
      Response redirected = client.get(server.url("/redirect"));
      assertEquals(200, redirected.status());
      assertArrayEquals(Payloads.SMALL, redirected.bytes());
      Response gzip = client.get(server.url("/gzip"));
      assertArrayEquals(Payloads.SMALL, gzip.bytes(), "gzip decoded");
      client.get(server.url("/cookies/set"));
      assertEquals("h3=yes", client.get(server.url("/cookies")).text());
      assertEquals(List.of("302 HTTP/3", "200 HTTP/3", "200 HTTP/3", "200 HTTP/3", "200 HTTP/3"), seen);
    }
  }
}
