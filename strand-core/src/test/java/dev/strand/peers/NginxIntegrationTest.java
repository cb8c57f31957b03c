package dev.strand.peers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.strand.Client;
import dev.strand.Request;
import dev.strand.Response;
import dev.strand.ResponseHead;
import dev.strand.StreamingResponse;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.NginxDocroot;
import dev.strand.testkit.Payloads;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The client against a real nginx (see .ci/nginx/nginx.conf.template; bin/test starts it and sets
 * {@code STRAND_NGINX_URL}). Skipped when no nginx is configured, except on CI, where that is an error.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
@Tag("peer")
class NginxIntegrationTest {
  private static Client client;
  private static final List<ResponseHead> rawHeads = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void connect() {
    String url = Peers.env("STRAND_NGINX_URL");
    client = Client.builder().baseUrl(url).onResponse(rawHeads::add).build();
  }

  @AfterAll
  static void close() {
    if (client != null) {
      client.close();
    }
  }

  private static ResponseHead lastRawHead() {
    return rawHeads.get(rawHeads.size() - 1);
  }

  @Test
  void keepAliveReusesConnections() {
    long before = client.stats().connectionsOpened();
    for (int i = 0; i < 50; i++) {
      assertEquals(200, client.get("/big.bin").status());
    }
    long opened = client.stats().connectionsOpened() - before;
    assertTrue(opened <= 2, "50 sequential requests opened " + opened + " connections");
  }

  @Test
  void gzipIsDecoded() {
    Response r = client.get("/small.json");
    assertEquals("gzip", lastRawHead().headers().first("Content-Encoding"), "nginx should have compressed it");
    assertArrayEquals(Payloads.SMALL, r.bytes());
    assertNull(r.headers().first("Content-Encoding"));
    assertEquals(NginxDocroot.text(10_000), client.get("/text.txt").text());
  }

  @Test
  void headHasNoBody() {
    Response r = client.head("/big.bin");
    assertEquals(200, r.status());
    assertEquals(String.valueOf(Payloads.BIG.length), r.headers().first("Content-Length"));
    assertEquals(0, r.bytes().length);
    assertArrayEquals(Payloads.BIG, client.get("/big.bin").bytes(), "the connection is still usable");
  }

  @Test
  void noContentAndNotModifiedHaveNoBody() {
    Response noContent = client.get("/status/204");
    assertEquals(204, noContent.status());
    assertEquals(0, noContent.bytes().length);
    Response notModified = client.get("/status/304");
    assertEquals(304, notModified.status());
    assertEquals(0, notModified.bytes().length);
    assertEquals(200, client.get("/small.json").status(), "the connection is still usable");
  }

  @Test
  void bigBodyIsExact() throws IOException {
    assertArrayEquals(Payloads.BIG, client.get("/big.bin").bytes());
    try (StreamingResponse r = client.stream(Request.get("/big.bin")); InputStream in = r.body()) {
      assertArrayEquals(Payloads.BIG, in.readAllBytes());
    }
  }

  @Test
  void largeBodyIsExactWhenStreamed() {
    long index = 0;
    try (StreamingResponse r = client.stream(Request.get("/large.bin"))) {
      assertEquals(200, r.status());
      for (byte[] chunk : r.chunks()) {
        for (byte b : chunk) {
          if (b != (byte) (index * 31 + 7)) {
            fail("byte " + index + " differs");
          }
          index++;
        }
      }
    }
    assertEquals(NginxDocroot.LARGE_SIZE, index);
  }

  @Test
  void largeBodyIsExactWhenRead() {
    byte[] body = client.get("/large.bin").bytes();
    assertArrayEquals(Payloads.bytes(NginxDocroot.LARGE_SIZE), body);
  }

  @Test
  void chunkedResponseIsDecoded() {
    Response r = client.get("/chunked");
    assertEquals("chunked", lastRawHead().headers().first("Transfer-Encoding"));
    assertEquals(NginxDocroot.text(20_000), new String(r.bytes(), StandardCharsets.UTF_8));
  }
}
