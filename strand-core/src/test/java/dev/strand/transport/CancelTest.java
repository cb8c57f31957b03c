package dev.strand.transport;

import dev.strand.spi.StreamingResponses;
import static dev.strand.transport.TransportFixture.fetch;
import static dev.strand.transport.TransportFixture.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.ClientStats;
import dev.strand.NettyTransport;
import dev.strand.StreamingResponse;
import dev.strand.TransportException;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Callers that give up — cancel, get interrupted, close early — never leave a connection in use. */
@ExtendWith(NettyLeakDetectorExtension.class)
class CancelTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @Test
  void cancellingAnExchangeInFlightClosesItsConnection() throws Exception {
    try (NettyTransport t = TransportFixture.transport(2)) {
      CompletableFuture<StreamingResponse> f = t.send(get(server.get(), "/never"));
      TransportFixture.awaitStats(t, s -> s.inUse() == 1);
      assertTrue(f.cancel(true));
      ClientStats s = TransportFixture.awaitStats(t, x -> x.open() == 0);
      assertEquals(0, s.inUse());
      assertEquals(200, fetch(t, get(server.get(), "/small")).status());
    }
  }

  @Test
  void cancellingAWaiterTakesItOutOfLine() throws Exception {
    try (NettyTransport t = TransportFixture.transport(1)) {
      CompletableFuture<StreamingResponse> busy = t.send(get(server.get(), "/delay/500"));
      TransportFixture.awaitStats(t, s -> s.inUse() == 1);
      CompletableFuture<StreamingResponse> waiting = t.send(get(server.get(), "/small"));
      assertEquals(1, t.stats().pending());
      assertTrue(waiting.cancel(true));
      assertEquals(0, t.stats().pending(), "out of line at once");
      StreamingResponses.body(busy.get(10, TimeUnit.SECONDS)).readAll(1 << 20).get(10, TimeUnit.SECONDS);
      ClientStats s = TransportFixture.awaitQuiet(t);
      assertEquals(1, s.idle(), "the connection went back to the pool, not to the cancelled waiter");
      assertEquals(1, s.connectionsOpened());
    }
  }

  @Test
  void anInterruptedCallerReleasesTheConnection() throws Exception {
    try (NettyTransport t = TransportFixture.transport(2)) {
      AtomicReference<CompletableFuture<StreamingResponse>> sent = new AtomicReference<>();
      CountDownLatch waiting = new CountDownLatch(1);
      AtomicReference<Throwable> seen = new AtomicReference<>();
      // What a blocking call does (dev.strand.Futures.await): wait, and cancel the future when interrupted.
      Thread caller = Thread.ofVirtual().start(() -> {
        CompletableFuture<StreamingResponse> f = t.send(get(server.get(), "/never"));
        sent.set(f);
        waiting.countDown();
        try {
          f.get();
        } catch (InterruptedException e) {
          f.cancel(true);
          seen.set(e);
        } catch (Exception e) {
          seen.set(e);
        }
      });
      waiting.await();
      TransportFixture.awaitStats(t, s -> s.inUse() == 1);
      caller.interrupt();
      caller.join(10_000);
      assertTrue(seen.get() instanceof InterruptedException, String.valueOf(seen.get()));
      assertTrue(sent.get().isCancelled());
      TransportFixture.awaitStats(t, s -> s.open() == 0);
    }
  }

  @Test
  void closingAStreamingResponseEarlyDiscardsTheConnection() throws Exception {
    try (NettyTransport t = TransportFixture.transport(2)) {
      StreamingResponse r = t.send(get(server.get(), "/bytes/10000000")).get(10, TimeUnit.SECONDS);
      assertNotNull(StreamingResponses.body(r).readChunk());
      r.close();
      r.close();
      TransportFixture.awaitStats(t, s -> s.open() == 0);
      assertEquals(0, t.stats().inUse());
    }
  }

  @Test
  void closingAfterTheEndKeepsTheConnection() throws Exception {
    try (NettyTransport t = TransportFixture.transport(2)) {
      StreamingResponse r = t.send(get(server.get(), "/small")).get(10, TimeUnit.SECONDS);
      while (StreamingResponses.body(r).readChunk() != null) {
        // drain
      }
      r.close();
      assertEquals(1, TransportFixture.awaitQuiet(t).idle());
    }
  }

  @Test
  void closingTheTransportFailsWaitersAndInFlightExchanges() throws Exception {
    NettyTransport t = TransportFixture.transport(1);
    CompletableFuture<StreamingResponse> inFlight = t.send(get(server.get(), "/never"));
    TransportFixture.awaitStats(t, s -> s.inUse() == 1);
    CompletableFuture<StreamingResponse> waiter = t.send(get(server.get(), "/small"));
    t.close();
    assertTrue(TransportFixture.failure(waiter) instanceof TransportException);
    assertTrue(TransportFixture.failure(inFlight) instanceof TransportException);
  }

  @Test
  void manyAbandonedExchangesLeakNothing() throws Exception {
    try (NettyTransport t = TransportFixture.transport(8)) {
      for (int i = 0; i < 200; i++) {
        CompletableFuture<StreamingResponse> f = t.send(get(server.get(), i % 2 == 0 ? "/delay/5" : "/small"));
        if (i % 3 == 0) {
          f.cancel(true);
        } else if (i % 3 == 1) {
          f.thenAccept(StreamingResponse::close);
        } else {
          f.thenCompose(r -> StreamingResponses.body(r).readAll(1 << 20));
        }
      }
      ClientStats s = TransportFixture.awaitQuiet(t);
      assertEquals(s.open(), s.idle());
      assertTrue(s.connectionsOpened() <= 200);
    }
  }
}
