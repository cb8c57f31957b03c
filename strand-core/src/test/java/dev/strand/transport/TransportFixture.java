package dev.strand.transport;

import dev.strand.spi.StreamingResponses;
import static org.junit.jupiter.api.Assertions.fail;

import dev.strand.ClientStats;
import dev.strand.Limits;
import dev.strand.NettyTransport;
import dev.strand.Request;
import dev.strand.Response;
import dev.strand.StreamingResponse;
import dev.strand.Timeout;
import dev.strand.testkit.TestServer;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** Shared helpers for end-to-end transport tests against the loopback {@link TestServer}. */
final class TransportFixture {
  static final Timeout TIMEOUT = Timeout.of(Duration.ofSeconds(10));

  private TransportFixture() {}

  static NettyTransport transport(int connections) {
    return NettyTransport.builder().limits(Limits.ofConnections(connections)).ioThreads(2).build();
  }

  static Request get(TestServer server, String path) {
    return Request.builder("GET", server.url(path)).timeout(TIMEOUT).build();
  }

  /** Sends and reads the whole body, as a buffered call would. */
  static Response fetch(NettyTransport t, Request request) throws Exception {
    StreamingResponse r = t.send(request).get(20, TimeUnit.SECONDS);
    byte[] body = StreamingResponses.body(r).readAll(Long.MAX_VALUE).get(20, TimeUnit.SECONDS);
    return Response.builder(r.status()).headers(r.headers()).version(r.version()).body(body).request(request).build();
  }

  /** The cause of a failed future. */
  static Throwable failure(java.util.concurrent.Future<?> f) throws Exception {
    try {
      f.get(20, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    }
    return fail("expected a failure, got a result");
  }

  /**
   * Waits (bounded) until the transport's counts satisfy {@code condition}. Releases after a discard
   * run on an event loop, so there is no future to wait for; the loop is bounded in time.
   */
  static ClientStats awaitStats(NettyTransport t, Predicate<ClientStats> condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    ClientStats s = t.stats();
    while (!condition.test(s)) {
      if (System.nanoTime() > deadline) {
        fail("stats never reached the expected state: " + s);
      }
      Thread.sleep(5);
      s = t.stats();
    }
    return s;
  }

  /** No connection in use and nobody waiting. */
  static ClientStats awaitQuiet(NettyTransport t) throws InterruptedException {
    return awaitStats(t, s -> s.inUse() == 0 && s.pending() == 0);
  }
}
