package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Read timeouts of HTTP/2 streams: one timer per connection times all its streams, each by its own
 * limit; a stream that times out is reset, and the connection carries on.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http2TimeoutsTest {
  static TestServer h2c;

  @BeforeAll
  static void start() {
    h2c = TestServer.builder().http2(true).build();
  }

  @AfterAll
  static void stop() {
    h2c.close();
  }

  static Client client() {
    return Client.builder().version(VersionPolicy.HTTP_2_PRIOR_KNOWLEDGE).limits(Limits.ofConnections(1))
        .timeout(Timeout.of(Duration.ofSeconds(30))).build();
  }

  static Request get(String path, Duration read) {
    return Request.builder("GET", h2c.url(path)).timeout(Timeout.of(Duration.ofSeconds(30)).withRead(read)).build();
  }

  static Throwable failure(CompletableFuture<?> f) throws Exception {
    ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(20, TimeUnit.SECONDS));
    return e.getCause();
  }

  @Test
  void aSilentStreamIsAReadTimeoutAndOnlyThatStreamGoes() throws Exception {
    try (Client client = client()) {
      assertEquals(200, client.get(h2c.url("/small")).status());
      long t0 = System.nanoTime();
      Throwable e = failure(client.async().send(get("/never", Duration.ofMillis(300))));
      assertInstanceOf(ReadTimeoutException.class, e);
      assertEquals("read timed out after 0.3 s (GET " + h2c.url("/never") + ")", e.getMessage());
      assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(300), "not before its limit");
      assertEquals(200, client.get(h2c.url("/small")).status());
      assertEquals(1, client.stats().connectionsOpened(), "a timed-out stream does not cost the connection");
    }
  }

  @Test
  void eachStreamIsTimedByItsOwnLimit() throws Exception {
    try (Client client = client()) {
      assertEquals(200, client.get(h2c.url("/small")).status());
      long t0 = System.nanoTime();
      // The longer limit arms the connection's timer first; the shorter one must still fire on time.
      CompletableFuture<Response> slow = client.async().send(get("/never", Duration.ofMillis(1200)));
      CompletableFuture<Response> fast = client.async().send(get("/never", Duration.ofMillis(200)));
      // Streams that make progress meanwhile are not timed out: 6 bytes 100 ms apart under a 400 ms limit.
      CompletableFuture<Response> dripping = client.async().send(get("/drip?bytes=6&delay=0&interval=100",
          Duration.ofMillis(400)));
      assertInstanceOf(ReadTimeoutException.class, failure(fast));
      long fastNanos = System.nanoTime() - t0;
      assertTrue(fastNanos < TimeUnit.MILLISECONDS.toNanos(1000), "the 200 ms stream waited " + fastNanos / 1_000_000
          + " ms: its timer fired only with the 1200 ms one");
      assertEquals(6, dripping.get(20, TimeUnit.SECONDS).bytes().length);
      assertTrue(!slow.isDone(), "the 1200 ms stream is still waiting when the others are done");
      assertInstanceOf(ReadTimeoutException.class, failure(slow));
      assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(1200));
      assertEquals(1, client.stats().connectionsOpened());
    }
  }

  @Test
  void streamsThatFinishLeaveNothingToTime() throws Exception {
    try (Client client = client()) {
      // Many short streams under a short limit, then silence longer than it: no stale timeout fails anything.
      List<CompletableFuture<Response>> all = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        all.add(client.async().send(get("/small", Duration.ofMillis(200))));
      }
      for (CompletableFuture<Response> f : all) {
        assertEquals(200, f.get(20, TimeUnit.SECONDS).status());
      }
      Thread.sleep(400); // longer than the limit: the timer fires and finds no stream
      assertEquals(200, client.send(get("/small", Duration.ofMillis(200))).status());
      assertEquals(1, client.stats().connectionsOpened());
    }
  }
}
