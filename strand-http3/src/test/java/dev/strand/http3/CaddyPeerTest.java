package dev.strand.http3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.strand.Client;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.Response;
import dev.strand.StreamingResponse;
import dev.strand.Timeout;
import dev.strand.Tls;
import dev.strand.Version;
import dev.strand.VersionPolicy;
import dev.strand.testkit.Http3TestServer;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.NginxDocroot;
import dev.strand.testkit.Payloads;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * HTTP/3 against Caddy (quic-go), an independent peer that bin/test starts: HTTP/1.1, HTTP/2 and
 * HTTP/3 on 127.0.0.1, the nginx docroot, {@code /echo} proxied to nghttpd, and {@code Alt-Svc} on
 * every response. Skipped when no Caddy is configured, except on CI, where that is an error.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class CaddyPeerTest {
  /** The value bin/test exported as {@code name}; a failure on CI without it, else the test is skipped. */
  static String env(String name) {
    String v = System.getenv(name);
    if (v == null || v.isBlank()) {
      if ("true".equals(System.getenv("CI"))) {
        fail(name + " is not set on CI: run the tests through bin/test, which starts Caddy");
      }
      Assumptions.abort(name + " is not set: no Caddy to test against (bin/test starts one)");
    }
    return v;
  }

  private static Client client(VersionPolicy version) {
    Tls tls = Tls.builder().trustPem(Path.of(env("STRAND_TLS_CA"))).build();
    return Client.builder().tls(tls).version(version).timeout(Timeout.of(Duration.ofSeconds(60))).build();
  }

  @Test
  void getsStaticFilesOverHttp3() {
    String base = env("STRAND_CADDY_URL");
    try (Client client = client(VersionPolicy.HTTP_3_ONLY)) {
      Response r = client.get(base + "/small.json");
      assertEquals(Version.HTTP_3, r.version());
      assertArrayEquals(Payloads.SMALL, r.bytes());
      assertArrayEquals(Payloads.BIG, client.get(base + "/big.bin").bytes());
      assertEquals(1, client.stats().connectionsOpened());
    }
  }

  @Test
  void largeDownloadAndUploadOverHttp3CheckedBySha256() throws Exception {
    String base = env("STRAND_CADDY_URL");
    try (Client client = client(VersionPolicy.HTTP_3_ONLY)) {
      try (StreamingResponse r = client.stream(Request.get(base + "/large.bin"))) {
        assertEquals(Version.HTTP_3, r.version());
        assertEquals(Http3TestServer.patternSha256(NginxDocroot.LARGE_SIZE), sha256(r));
      }
      // Streamed, with its length declared: Caddy 2.6's HTTP/3 server hands its proxy a body without a
      // Content-Length as empty (nghttpd echoed 0 bytes; the same body over HTTP/2 comes back whole).
      long size = 16L << 20;
      Response echo = client.post(base + "/echo",
          RequestBody.ofInputStream(new Http3BodiesTest.PatternStream(size), size, "application/octet-stream"));
      assertEquals(200, echo.status());
      assertEquals(Version.HTTP_3, echo.version());
      assertEquals(Http3TestServer.patternSha256(size), HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-256").digest(echo.bytes())));
    }
  }

  @Test
  void upgradesThroughAltSvc() {
    String base = env("STRAND_CADDY_URL");
    try (Client client = client(VersionPolicy.HTTP_3_ALT_SVC)) {
      Response first = client.get(base + "/small.json");
      assertEquals(Version.HTTP_2, first.version());
      String port = base.substring(base.lastIndexOf(':') + 1);
      assertTrue(first.headers().first("alt-svc").contains("h3=\":" + port + "\""), first.headers().first("alt-svc"));
      Response second = client.get(base + "/small.json");
      assertEquals(Version.HTTP_3, second.version());
      assertArrayEquals(Payloads.SMALL, second.bytes());
    }
  }

  @Test
  void hundredConcurrentRequestsShareOneQuicConnection() {
    String base = env("STRAND_CADDY_URL");
    try (Client client = client(VersionPolicy.HTTP_3_ONLY)) {
      client.get(base + "/small.json");
      List<CompletableFuture<Response>> all = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        all.add(client.async().get(base + (i % 10 == 0 ? "/big.bin" : "/small.json")));
      }
      for (int i = 0; i < 100; i++) {
        assertArrayEquals(i % 10 == 0 ? Payloads.BIG : Payloads.SMALL, all.get(i).join().bytes());
      }
      assertEquals(1, client.stats().connectionsOpened());
    }
  }

  private static String sha256(StreamingResponse r) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    byte[] buf = new byte[64 * 1024];
    try (InputStream in = r.body()) {
      int n;
      while ((n = in.read(buf)) >= 0) {
        md.update(buf, 0, n);
      }
    }
    return HexFormat.of().formatHex(md.digest());
  }
}
