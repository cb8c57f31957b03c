package dev.strand.http3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.Client;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.Response;
import dev.strand.StreamingResponse;
import dev.strand.Version;
import dev.strand.VersionPolicy;
import dev.strand.testkit.Http3TestServer;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bodies both ways over HTTP/3, checked by SHA-256: in memory, streamed from an InputStream of
 * unknown length, and a download larger than every window, read slowly enough that flow control
 * must hold the server back.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http3BodiesTest {
  static final long LARGE = 64L << 20;
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
  void postsABufferedBodyAndGetsItBack() {
    byte[] body = Payloads.bytes(300_000);
    try (Client client = Http3Fixture.client(VersionPolicy.HTTP_3_ONLY)) {
      Response echo = client.post(server.url("/echo"), RequestBody.of(body, "application/octet-stream"));
      assertEquals(Version.HTTP_3, echo.version());
      assertArrayEquals(body, echo.bytes());
      Response empty = client.post(server.url("/sha256"), RequestBody.of(new byte[0], "application/octet-stream"));
      assertEquals("0 " + sha256(new byte[0]) + "\n", empty.text());
    }
  }

  @Test
  void uploadsALargeStreamedBodyCheckedBySha256() {
    try (Client client = Http3Fixture.client(VersionPolicy.HTTP_3_ONLY)) {
      RequestBody streamed = RequestBody.ofInputStream(new PatternStream(LARGE), "application/octet-stream");
      Response r = client.post(server.url("/sha256"), streamed);
      assertEquals(LARGE + " " + Http3TestServer.patternSha256(LARGE) + "\n", r.text());
    }
  }

  @Test
  void downloadsALargeBodyWithBackpressureCheckedBySha256() throws Exception {
    try (Client client = Http3Fixture.client(VersionPolicy.HTTP_3_ONLY);
        StreamingResponse r = client.stream(Request.get(server.url("/bytes/" + LARGE)))) {
      assertEquals(Version.HTTP_3, r.version());
      assertEquals(String.valueOf(LARGE), r.headers().first("content-length"));
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      long total = 0;
      byte[] buf = new byte[64 * 1024];
      try (InputStream in = r.body()) {
        int n;
        while ((n = in.read(buf)) >= 0) {
          md.update(buf, 0, n);
          total += n;
          if (total < (4 << 20)) {
            Thread.sleep(1); // a slow start: the stream's window fills and the server must wait
          }
        }
      }
      assertEquals(LARGE, total);
      assertEquals(Http3TestServer.patternSha256(LARGE), HexFormat.of().formatHex(md.digest()));
    }
  }

  static String sha256(byte[] b) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** The Payloads sequence, {@code n} bytes of it, of unknown length to the client. */
  static final class PatternStream extends InputStream {
    private static final byte[] BLOCK = Payloads.bytes(64 * 1024);
    private long left;
    private int at;

    PatternStream(long n) {
      this.left = n;
    }

    @Override
    public int read() {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (left == 0) {
        return -1;
      }
      int n = (int) Math.min(Math.min(len, left), BLOCK.length - at);
      System.arraycopy(BLOCK, at, b, off, n);
      at = (at + n) % BLOCK.length;
      left -= n;
      return n;
    }
  }
}
