package dev.strand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** gzip request bodies: the testkit's /gunzip inflates what was sent and must find the original bytes. */
@ExtendWith(NettyLeakDetectorExtension.class)
class GzipRequestBodyTest {
  private static TestServer server;
  private static Client client;

  @BeforeAll
  static void start() {
    server = TestServer.start();
    client = Client.builder().build();
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  /** Compressible but not trivially: numbered lines. */
  static byte[] content(int bytes) {
    StringBuilder sb = new StringBuilder(bytes + 64);
    for (int i = 0; sb.length() < bytes; i++) {
      sb.append("line ").append(i).append(" of the body, ").append(Integer.toHexString(i * 31)).append('\n');
    }
    return sb.substring(0, bytes).getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void inMemoryBodyIsCompressedEagerlyWithAKnownLength() throws Exception {
    byte[] original = content(300_000);
    Request request = Request.builder("POST", server.url("/gunzip"))
        .body(RequestBody.of(original, "text/plain")).gzip().build();
    assertEquals("gzip", request.headers().first("Content-Encoding"));
    RequestBody body = request.body();
    assertTrue(body.contentLength() > 0 && body.contentLength() < original.length / 3, "" + body.contentLength());
    assertEquals("text/plain", body.contentType());
    assertArrayEquals(original, gunzip(body.bufferedBytes()));
    Map<?, ?> echo = client.send(request).raiseForStatus().json(Map.class);
    assertEquals("gzip", echo.get("encoding"));
    assertEquals(body.contentLength(), ((Number) echo.get("wireBytes")).longValue());
    assertEquals(original.length, ((Number) echo.get("bytes")).longValue());
    assertEquals(sha256(original), echo.get("sha256"));
  }

  @Test
  void streamedBodyIsCompressedOnTheFlyAndSentChunked() throws Exception {
    byte[] original = content(3_000_000);
    RequestBody body = RequestBody.gzip(RequestBody.ofInputStream(new ByteArrayInputStream(original), "text/plain"));
    assertEquals(-1, body.contentLength());
    assertFalse(body.isRepeatable());
    Map<?, ?> echo = client.send(Request.builder("POST", server.url("/gunzip"))
        .header("Content-Encoding", "gzip").body(body).build()).raiseForStatus().json(Map.class);
    assertEquals(original.length, ((Number) echo.get("bytes")).longValue());
    assertEquals(sha256(original), echo.get("sha256"));
    assertTrue(((Number) echo.get("wireBytes")).longValue() < original.length / 3);
  }

  @Test
  void streamedBodyReadsItsSourceAsItGoesNotWhole() throws IOException {
    byte[] original = content(4_000_000);
    long[] consumed = {0};
    InputStream counting = new ByteArrayInputStream(original) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        int n = super.read(b, off, len);
        consumed[0] += Math.max(n, 0);
        return n;
      }
    };
    try (InputStream in = RequestBody.gzip(RequestBody.ofInputStream(counting, null)).openStream()) {
      assertTrue(in.read(new byte[100]) > 0);
      assertTrue(consumed[0] <= 64 * 1024, "read " + consumed[0] + " source bytes for the first output");
      byte[] rest = in.readAllBytes();
      assertTrue(rest.length > 0);
    }
    assertEquals(original.length, consumed[0]);
  }

  @Test
  void repeatableStreamedBodyCompressesTheSameEachTime() throws IOException {
    byte[] original = content(200_000);
    RequestBody body = RequestBody.gzip(new RequestBody() {
      @Override
      public String contentType() {
        return null;
      }

      @Override
      public long contentLength() {
        return original.length;
      }

      @Override
      public InputStream openStream() {
        return new ByteArrayInputStream(original);
      }
    });
    assertTrue(body.isRepeatable());
    for (int i = 0; i < 2; i++) {
      try (InputStream in = body.openStream()) {
        assertArrayEquals(original, gunzip(in.readAllBytes()));
      }
    }
    try (InputStream in = RequestBody.gzip(RequestBody.of(new byte[0])).openStream()) {
      assertArrayEquals(new byte[0], gunzip(in.readAllBytes()));
    }
  }

  @Test
  void builderGzipNeedsABodyAndNoOtherEncoding() {
    assertThrows(IllegalStateException.class, () -> Request.builder("POST", "http://h/").gzip());
    assertThrows(IllegalStateException.class, () -> Request.builder("POST", "http://h/")
        .header("Content-Encoding", "br").body("x").gzip());
  }

  static byte[] gunzip(byte[] gz) throws IOException {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
      return in.readAllBytes();
    }
  }

  static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }
}
