package dev.strand.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.bench.clients.BenchClient;
import dev.strand.bench.clients.FakeClient;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class LoadLoopTest {

  /** The one timed assertion the issue asks for: N in flight at a known latency gives N / latency req/s. */
  @Timeout(30)
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"semaphore", "lanes"})
  void fakeClientWithKnownLatencyYieldsExpectedThroughput(String driver) throws Exception {
    int concurrency = 10;
    long latencyMicros = 20_000;
    double expected = concurrency / (latencyMicros / 1e6); // 500 req/s
    try (FakeClient fake = new FakeClient(latencyMicros, 100)) {
      LoadLoop loop = new LoadLoop(fake, concurrency, 100, 1_000_000, driver);
      loop.start();
      loop.run(Duration.ofMillis(300));
      LoadLoop.Measurement m = loop.measure(3, Duration.ofMillis(700), b -> { });
      assertTrue(loop.stop(Duration.ofSeconds(5)));
      assertEquals(3, m.batches().size());
      assertEquals(0, m.errors());
      for (LoadLoop.Batch b : m.batches()) {
        // Timer slack only ever makes a fake slower: generous below, tight above.
        assertTrue(b.rps() > expected * 0.75 && b.rps() < expected * 1.05, "batch req/s " + b.rps());
      }
      double p50Ms = m.latencyMicros().getValueAtPercentile(50) / 1000.0;
      assertTrue(p50Ms >= 19.5 && p50Ms < 40, "p50 " + p50Ms);
    }
  }

  @Test
  @Timeout(30)
  void blockingDriverKeepsExactlyNInFlight() throws Exception {
    int concurrency = 4;
    java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger maxSeen = new java.util.concurrent.atomic.AtomicInteger();
    BenchClient blocking = new BenchClient() {
      @Override
      public boolean isBlocking() {
        return true;
      }

      @Override
      public int getBlocking() throws Exception {
        maxSeen.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        Thread.sleep(5);
        inFlight.decrementAndGet();
        return 7;
      }

      @Override
      public void close() {
      }
    };
    LoadLoop loop = new LoadLoop(blocking, concurrency, 7, 1_000_000);
    loop.start();
    LoadLoop.Measurement m = loop.measure(2, Duration.ofMillis(300), b -> { });
    assertTrue(loop.stop(Duration.ofSeconds(5)));
    assertEquals(concurrency, maxSeen.get());
    assertTrue(m.ok() > 100, "ok " + m.ok());
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"semaphore", "lanes"})
  @Timeout(30)
  void stopsByItselfAtTheRequestCapAndSurvivesSynchronousCompletion(String driver) throws Exception {
    BenchClient instant = new BenchClient() {
      @Override
      public boolean isBlocking() {
        return false;
      }

      @Override
      public CompletionStage<Integer> getAsync() {
        return CompletableFuture.completedFuture(3);
      }

      @Override
      public void close() {
      }
    };
    LoadLoop loop = new LoadLoop(instant, 8, 3, 200_000, driver);
    loop.start();
    loop.run(Duration.ofSeconds(20));
    assertTrue(loop.finished(), "the cap, not the clock, ended the run");
    assertTrue(loop.stop(Duration.ofSeconds(1)));
  }

  @Test
  @Timeout(30)
  void wrongBodiesAndExceptionsAreCountedWithTheFirstError() throws Exception {
    try (FakeClient fake = new FakeClient(1_000, 99)) {
      LoadLoop loop = new LoadLoop(fake, 2, 100, 1_000_000);
      loop.start();
      LoadLoop.Measurement m = loop.measure(1, Duration.ofMillis(200), b -> { });
      loop.stop(Duration.ofSeconds(5));
      assertEquals(0, m.ok());
      assertTrue(m.errors() > 0);
      assertEquals("body length 99 != expected 100", loop.firstError());
    }
  }
}
