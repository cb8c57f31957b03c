package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Upload and download progress against the testkit: monotonic, coalesced, off the event loop, final before the end. */
@ExtendWith(NettyLeakDetectorExtension.class)
class ProgressListenerTest {
  private static TestServer server;
  private static TestServer h2c;
  private static Client client;
  private static Client h2Client;

  @BeforeAll
  static void start() {
    server = TestServer.start();
    h2c = TestServer.builder().http2(true).build();
    client = Client.builder().followRedirects(true).build();
    h2Client = Client.builder().version(VersionPolicy.HTTP_2_PRIOR_KNOWLEDGE).build();
  }

  @AfterAll
  static void stop() {
    client.close();
    h2Client.close();
    server.close();
    h2c.close();
  }

  /** Records every call, and whether any came on a platform thread (an event loop is one) or concurrently. */
  static final class Recorder implements ProgressListener {
    final List<long[]> calls = new ArrayList<>();
    volatile boolean onPlatformThread;
    volatile boolean overlapped;
    private volatile boolean inside;
    private final long sleepMillis;

    Recorder(long sleepMillis) {
      this.sleepMillis = sleepMillis;
    }

    @Override
    public void onProgress(long bytes, long total) {
      if (inside) {
        overlapped = true;
      }
      inside = true;
      onPlatformThread |= !Thread.currentThread().isVirtual();
      synchronized (this) {
        calls.add(new long[] {bytes, total});
      }
      if (sleepMillis > 0) {
        try {
          Thread.sleep(sleepMillis);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      inside = false;
    }

    synchronized long[] last() {
      return calls.get(calls.size() - 1);
    }

    synchronized int size() {
      return calls.size();
    }

    /** Counts never go down, every total but the last is {@code total}, the last is (n, n). */
    synchronized void assertWellFormed(long n, long total) {
      assertFalse(calls.isEmpty());
      assertFalse(onPlatformThread, "called on a platform thread");
      assertFalse(overlapped, "called concurrently");
      long previous = -1;
      for (int i = 0; i < calls.size(); i++) {
        long[] c = calls.get(i);
        assertTrue(c[0] >= previous, "went down at call " + i + ": " + c[0] + " after " + previous);
        previous = c[0];
        if (i < calls.size() - 1) {
          assertEquals(total, c[1], "total at call " + i);
        }
      }
      assertEquals(n, last()[0]);
      assertEquals(n, last()[1]);
    }
  }

  @Test
  void sendReportsTheDownloadWithItsFinalCountBeforeReturning() {
    Recorder r = new Recorder(0);
    Response response = client.send(Request.builder("GET", server.url("/bytes/2000000")).downloadProgress(r).build());
    int callsAtReturn = r.size();
    assertEquals(2_000_000, response.bytes().length);
    r.assertWellFormed(2_000_000, 2_000_000);
    assertEquals(callsAtReturn, r.size(), "no call after send returned");
  }

  @Test
  void streamReportsTheFinalCountBeforeTheBodyEnds() throws Exception {
    Recorder r = new Recorder(0);
    try (StreamingResponse response = client.stream(
        Request.builder("GET", server.url("/chunked/1500000")).downloadProgress(r).build());
        InputStream in = response.body()) {
      byte[] buf = new byte[8192];
      long total = 0;
      int n;
      while ((n = in.read(buf)) >= 0) {
        total += n;
      }
      assertEquals(1_500_000, total);
      long[] last = r.last();
      assertEquals(1_500_000, last[0], "final count delivered before read() returned -1");
      r.assertWellFormed(1_500_000, -1); // chunked: the total is unknown until the end
    }
  }

  @Test
  void aSlowListenerSeesFewerLaterValuesNeverStaleOnes() {
    Recorder r = new Recorder(40);
    client.send(Request.builder("GET", server.url("/chunked/3000000")).downloadProgress(r).build());
    r.assertWellFormed(3_000_000, -1);
    assertTrue(r.size() < 3_000_000 / 8192 / 4, "coalesced to " + r.size() + " calls");
  }

  @Test
  void uploadOfABodyInMemoryAndOfAStreamEndsWithTheWholeCount() {
    byte[] body = new byte[3_000_000];
    Recorder inMemory = new Recorder(0);
    Map<?, ?> sink = client.send(Request.builder("POST", server.url("/sink"))
        .body(RequestBody.of(body)).uploadProgress(inMemory).build()).json(Map.class);
    assertEquals(3_000_000, ((Number) sink.get("bytes")).longValue());
    inMemory.assertWellFormed(3_000_000, 3_000_000);

    Recorder streamed = new Recorder(0);
    client.send(Request.builder("POST", server.url("/sink"))
        .body(RequestBody.ofInputStream(new ByteArrayInputStream(body), null)).uploadProgress(streamed).build());
    streamed.assertWellFormed(3_000_000, -1);
  }

  @Test
  void http2CountsBothDirections() {
    Recorder up = new Recorder(0);
    Recorder down = new Recorder(0);
    Response response = h2Client.send(Request.builder("POST", h2c.url("/sink"))
        .body(RequestBody.of(new byte[700_000])).uploadProgress(up).build());
    assertEquals(Version.HTTP_2, response.version());
    up.assertWellFormed(700_000, 700_000);
    Response big = h2Client.send(Request.builder("GET", h2c.url("/bytes/900000")).downloadProgress(down).build());
    assertEquals(Version.HTTP_2, big.version());
    down.assertWellFormed(900_000, 900_000);
  }

  @Test
  void afterRedirectsOnlyTheFinalBodyIsCounted() {
    Recorder r = new Recorder(0);
    Response response = client.send(Request.builder("GET", server.url("/redirect/2")).downloadProgress(r).build());
    assertEquals(2, response.history().size());
    int length = response.bytes().length;
    r.assertWellFormed(length, length);
  }

  @Test
  void aGzipResponseCountsTheBytesOffTheWire() {
    Recorder r = new Recorder(0);
    Response response = client.send(Request.builder("GET", server.url("/gzip")).downloadProgress(r).build());
    long wire = r.last()[0];
    assertTrue(wire < response.bytes().length, wire + " compressed bytes, " + response.bytes().length + " decoded");
    r.assertWellFormed(wire, wire);
  }

  @Test
  void aThrowingListenerDoesNotBreakTheTransfer() {
    Response response = client.send(Request.builder("GET", server.url("/bytes/100000"))
        .downloadProgress((b, t) -> {
          throw new IllegalStateException("display broke");
        }).build());
    assertEquals(100_000, response.bytes().length);
  }
}
