package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Application interceptors may block: their code never runs on an I/O thread. */
@ExtendWith(NettyLeakDetectorExtension.class)
class BlockingInterceptorTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  /** Records the thread that goes on after {@code proceed}. */
  private static Interceptor recording(AtomicReference<Thread> after) {
    return chain -> chain.proceed(chain.request()).thenApply(r -> {
      after.set(Thread.currentThread());
      return r;
    });
  }

  private static Client.Builder oneIoThread() {
    return Client.builder().transport(NettyTransport.builder().ioThreads(1).build());
  }

  @Test
  void aBlockingCallGoesOnInItsOwnThread() {
    AtomicReference<Thread> after = new AtomicReference<>();
    try (Client client = oneIoThread().interceptor(recording(after)).build()) {
      assertEquals(200, client.send(Request.get(server.url("/small"))).status());
      assertEquals(Thread.currentThread(), after.get());
      try (StreamingResponse r = client.stream(Request.get(server.url("/small")))) {
        assertEquals(200, r.status());
      }
      assertEquals(Thread.currentThread(), after.get(), "stream too");
    }
  }

  @Test
  void anAsyncCallGoesOnInAVirtualThreadOrTheExecutorGiven() throws Exception {
    AtomicReference<Thread> after = new AtomicReference<>();
    try (Client client = oneIoThread().interceptor(recording(after)).build()) {
      assertEquals(200, client.async().send(Request.get(server.url("/small"))).get(10, TimeUnit.SECONDS).status());
      assertTrue(after.get().isVirtual(), "a virtual thread, not the I/O thread: " + after.get());
    }
    var named = Executors.newSingleThreadExecutor(r -> new Thread(r, "interceptor-pool"));
    try (Client client = oneIoThread().interceptor(recording(after)).interceptorExecutor(named).build()) {
      client.async().send(Request.get(server.url("/small"))).get(10, TimeUnit.SECONDS);
      assertEquals("interceptor-pool", after.get().getName());
    } finally {
      named.shutdown();
    }
  }

  @Test
  void anInterceptorThatBlocksDoesNotStallOtherCallsOnItsIoThread() throws Exception {
    CountDownLatch otherDone = new CountDownLatch(1);
    AtomicReference<Boolean> sawOther = new AtomicReference<>();
    // It waits, after its response arrived, for another call's response: on the one I/O thread that would
    // never come.
    Interceptor waitsForTheOther = chain -> chain.proceed(chain.request()).thenApply(r -> {
      if (chain.request().url().getPath().equals("/small")) {
        try {
          sawOther.set(otherDone.await(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return r;
    });
    try (Client client = oneIoThread().interceptor(waitsForTheOther).build()) {
      CompletableFuture<Response> blocked = client.async().send(Request.get(server.url("/small")));
      Response other = client.send(Request.get(server.url("/delay/100")));
      otherDone.countDown();
      assertEquals(200, other.status());
      assertEquals(200, blocked.get(20, TimeUnit.SECONDS).status());
      assertEquals(Boolean.TRUE, sawOther.get(), "the other call completed while this interceptor waited");
    }
  }

  @Test
  void anInterruptedBlockingCallWithInterceptorsFailsAndKeepsTheFlag() throws Exception {
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicReference<Boolean> flag = new AtomicReference<>();
    try (Client client = oneIoThread().interceptor(chain -> chain.proceed(chain.request())).build()) {
      Thread caller = Thread.ofVirtual().start(() -> {
        try {
          client.send(Request.get(server.url("/never")));
        } catch (RuntimeException e) {
          thrown.set(e);
          flag.set(Thread.currentThread().isInterrupted());
        }
      });
      until(() -> client.stats().inUse() == 1, "the call is in flight");
      caller.interrupt();
      caller.join(10_000);
      assertTrue(thrown.get() instanceof TransportException, String.valueOf(thrown.get()));
      assertTrue(thrown.get().getMessage().contains("interrupted"), thrown.get().getMessage());
      assertEquals(Boolean.TRUE, flag.get());
      until(() -> client.stats().open() == 0, "the exchange was aborted and its connection closed");
    }
  }

  private static void until(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < end, "never: " + what);
      Thread.sleep(10);
    }
  }
}
