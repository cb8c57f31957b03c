package dev.strand.peers;

import static dev.strand.peers.Peers.env;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.Http2Test;
import dev.strand.Limits;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.Response;
import dev.strand.StreamingResponse;
import dev.strand.Timeout;
import dev.strand.Tls;
import dev.strand.Version;
import dev.strand.VersionPolicy;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * HTTPS and HTTP/2 against real, independent peers that bin/test starts: nginx (TLS, ALPN h2 and
 * http/1.1, gzip) and nghttpd (TLS h2, and h2c with prior knowledge and at most 4 concurrent
 * streams). Skipped when the peers are not configured, except on CI, where that is an error.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
@Tag("peer")
class Http2PeersTest {
  static final long LARGE = 64L << 20;

  private static Client client(VersionPolicy version) {
    Tls tls = Tls.builder().trustPem(Path.of(env("STRAND_TLS_CA"))).build();
    return Client.builder().tls(tls).version(version).timeout(Timeout.of(Duration.ofSeconds(60))).build();
  }

  private static long drain(StreamingResponse r) throws Exception {
    long total = 0;
    byte[] buf = new byte[64 * 1024];
    try (InputStream in = r.body()) {
      int k;
      while ((k = in.read(buf)) >= 0) {
        total += k;
      }
    }
    return total;
  }

  @Test
  void nginxSpeaksH2AndHttp11OverAlpnWithGzip() {
    String base = env("STRAND_NGINX_TLS_URL");
    try (Client h2 = client(VersionPolicy.HTTP_2); Client h1 = client(VersionPolicy.HTTP_1_1)) {
      Response r2 = h2.get(base + "/small.json");
      assertEquals(Version.HTTP_2, r2.version());
      assertArrayEquals(Payloads.SMALL, r2.bytes(), "gzip decoded over h2");
      Response r1 = h1.get(base + "/small.json");
      assertEquals(Version.HTTP_1_1, r1.version());
      assertArrayEquals(Payloads.SMALL, r1.bytes());
      assertArrayEquals(Payloads.BIG, h2.get(base + "/big.bin").bytes());
    }
  }

  @Test
  void nginxLargeBodiesBothWaysOverH2() throws Exception {
    String base = env("STRAND_NGINX_TLS_URL");
    try (Client h2 = client(VersionPolicy.HTTP_2)) {
      try (StreamingResponse r = h2.stream(Request.get(base + "/large.bin"))) {
        assertEquals(Version.HTTP_2, r.version());
        assertEquals(LARGE, drain(r));
      }
      Response up = h2.put(base + "/upload",
          RequestBody.ofInputStream(new Http2Test.ZeroStream(LARGE), LARGE, "application/octet-stream"));
      assertEquals(200, up.status(), up.text());
      assertEquals("received", up.text().strip());
      assertEquals(Version.HTTP_2, up.version());
    }
  }

  @Test
  void nginxLargeBodiesBothWaysOverHttp11Tls() throws Exception {
    String base = env("STRAND_NGINX_TLS_URL");
    try (Client h1 = client(VersionPolicy.HTTP_1_1)) {
      try (StreamingResponse r = h1.stream(Request.get(base + "/large.bin"))) {
        assertEquals(LARGE, drain(r));
      }
      Response up = h1.post(base + "/upload", RequestBody.of(new byte[8 << 20]));
      assertEquals("received", up.text().strip());
    }
  }

  @Test
  void nghttpdOverTls() {
    String base = env("STRAND_NGHTTPD_URL");
    try (Client h2 = client(VersionPolicy.HTTP_2)) {
      Response r = h2.get(base + "/big.bin");
      assertEquals(Version.HTTP_2, r.version());
      assertArrayEquals(Payloads.BIG, r.bytes());
      byte[] body = Payloads.bytes(500_000);
      Response echo = h2.post(base + "/upload", RequestBody.of(body));
      assertArrayEquals(body, echo.bytes(), "--echo-upload sends the body back");
    }
  }

  @Test
  void nghttpdH2cPriorKnowledgeWithFourStreams() throws Exception {
    String base = env("STRAND_NGHTTPD_H2C_URL");
    try (Client client = Client.builder().version(VersionPolicy.HTTP_2_PRIOR_KNOWLEDGE).limits(Limits.ofConnections(1))
        .timeout(Timeout.of(Duration.ofSeconds(60))).build()) {
      List<CompletableFuture<Response>> all = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        all.add(client.async().get(base + "/big.bin"));
      }
      for (CompletableFuture<Response> f : all) {
        Response r = f.get(60, TimeUnit.SECONDS);
        assertEquals(Version.HTTP_2, r.version());
        assertArrayEquals(Payloads.BIG, r.bytes());
      }
      assertEquals(1, client.stats().connectionsOpened(), "40 requests queued behind 4 streams of one connection");
      assertTrue(client.stats().idle() == 1, client.stats().toString());
    }
  }
}
