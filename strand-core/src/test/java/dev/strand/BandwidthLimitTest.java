package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import java.io.InputStream;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * maxBytesPerSecond over loopback: 1.5 MB at 1 MB/s must take bytes ÷ rate within ±20 % (the bucket lets the
 * first 100 ms through at once, so about 1.4 s). A bound on behaviour with a wide margin, not a benchmark.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class BandwidthLimitTest {
  private static final long RATE = 1_000_000;
  private static final int SIZE = 1_500_000;
  private static TestServer server;
  private static Client client;

  @BeforeAll
  static void start() {
    server = TestServer.start();
    client = Client.builder().build();
    // Connection set-up and class loading are not the limit's doing: pay for them before measuring.
    client.send(Request.builder("POST", server.url("/sink")).body(RequestBody.of(new byte[100_000]))
        .maxBytesPerSecond(100_000_000).uploadProgress((b, t) -> { }).downloadProgress((b, t) -> { }).build());
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  private static void assertRate(long bytes, long nanos) {
    double rate = bytes / (nanos / 1e9);
    assertTrue(rate > RATE * 0.8 && rate < RATE * 1.2, "measured " + Math.round(rate) + " B/s, limit " + RATE);
  }

  @Test
  void aBufferedDownloadIsPaced() {
    Request request = Request.builder("GET", server.url("/bytes/" + SIZE)).maxBytesPerSecond(RATE).build();
    long start = System.nanoTime();
    Response r = client.send(request);
    long took = System.nanoTime() - start;
    assertEquals(SIZE, r.bytes().length);
    assertRate(SIZE, took);
  }

  @Test
  void aStreamedChunkedDownloadIsPaced() throws Exception {
    Request request = Request.builder("GET", server.url("/chunked/" + SIZE)).maxBytesPerSecond(RATE).build();
    long start = System.nanoTime();
    long n;
    try (StreamingResponse r = client.stream(request); InputStream in = r.body()) {
      n = in.transferTo(OutputStreamSink.INSTANCE);
    }
    long took = System.nanoTime() - start;
    assertEquals(SIZE, n);
    assertRate(SIZE, took);
  }

  @Test
  void anUploadIsPaced() {
    Request request = Request.builder("POST", server.url("/sink"))
        .body(RequestBody.of(new byte[SIZE])).maxBytesPerSecond(RATE).build();
    long start = System.nanoTime();
    Response response = client.send(request);
    long took = System.nanoTime() - start;
    Map<?, ?> sink = response.json(Map.class); // not timed: the first JSON parse loads Jackson
    assertEquals((long) SIZE, ((Number) sink.get("bytes")).longValue());
    assertRate(SIZE, took);
  }

  @Test
  void withoutALimitTheSameDownloadIsFarFaster() {
    long start = System.nanoTime();
    assertEquals(SIZE, client.send(Request.get(server.url("/bytes/" + SIZE))).bytes().length);
    // The limited runs take at least 1.25 s (1.5 MB less the 100 ms bucket, at -20 %): unlimited must be clearly less.
    assertTrue(System.nanoTime() - start < 1_000_000_000L, "an unlimited 1.5 MB on loopback takes well under 1 s");
  }

  @Test
  void negativeLimitsAreRefused() {
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> Request.builder("GET", "http://h/").maxBytesPerSecond(-1));
  }

  private static final class OutputStreamSink extends java.io.OutputStream {
    static final OutputStreamSink INSTANCE = new OutputStreamSink();

    @Override
    public void write(int b) {}

    @Override
    public void write(byte[] b, int off, int len) {}
  }
}
