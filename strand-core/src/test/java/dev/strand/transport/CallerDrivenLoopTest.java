package dev.strand.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.EventListener;
import dev.strand.Request;
import dev.strand.ResponseHead;
import dev.strand.StreamingResponse;
import dev.strand.internal.connect.EventLoops;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Who runs the event loop ({@code CallerDrivenLoop}): a blocking call that finds its connection's loop idle
 * reads its response on its own thread; an async call, or a blocking one when the property says
 * {@code loop}, is answered on the loop's own thread; and virtual threads waiting on a slow server give their
 * carriers back within the drive limit, so other virtual threads run.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class CallerDrivenLoopTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @AfterEach
  void clearProperty() {
    System.clearProperty(EventLoops.DRIVE_PROPERTY);
  }

  /** Remembers the thread that saw the last response head. */
  private static final class HeadThread implements EventListener {
    final AtomicReference<Thread> thread = new AtomicReference<>();

    @Override
    public void responseHeadersReceived(EventListener.Call call, long nanos, ResponseHead head) {
      thread.set(Thread.currentThread());
    }
  }

  /** Gives the loop's own thread time to finish its pass and let go, so that the next call finds the loop idle. */
  private static void lettingGo() throws InterruptedException {
    Thread.sleep(50);
  }

  @Test
  void aBlockingCallOnAnIdleConnectionReadsItsResponseOnTheCallersThread() throws Exception {
    HeadThread heads = new HeadThread();
    try (Client client = Client.builder().eventListener(heads).build()) {
      assertEquals(200, client.get(server.url("/small")).status()); // connects: the loop's own thread drives
      lettingGo(); // it may still hold the loop for a moment after the response was handed over
      for (int i = 0; i < 3; i++) {
        assertEquals(200, client.get(server.url("/small")).status());
        assertEquals(Thread.currentThread(), heads.thread.get());
      }
      try (StreamingResponse r = client.stream(Request.get(server.url("/bytes/100000")))) {
        assertEquals(Thread.currentThread(), heads.thread.get());
        assertEquals(100_000, r.body().readAllBytes().length); // the rest comes on the loop's own thread
      }
      lettingGo();
      assertEquals(200, client.get(server.url("/small")).status()); // and the loop is free again after it
      assertEquals(Thread.currentThread(), heads.thread.get());
    }
  }

  @Test
  void anAsyncCallIsAnsweredOnTheLoopsOwnThread() {
    HeadThread heads = new HeadThread();
    try (Client client = Client.builder().eventListener(heads).build()) {
      client.get(server.url("/small"));
      assertEquals(200, client.async().send(Request.get(server.url("/small"))).join().status());
      assertNotEquals(Thread.currentThread(), heads.thread.get());
      assertTrue(heads.thread.get().getName().startsWith("strand-io"), heads.thread.get().getName());
    }
  }

  @Test
  void withTheLoopPropertyOnlyTheLoopsThreadsRunIt() {
    System.setProperty(EventLoops.DRIVE_PROPERTY, "loop");
    HeadThread heads = new HeadThread();
    try (Client client = Client.builder().eventListener(heads).build()) {
      client.get(server.url("/small"));
      assertEquals(200, client.get(server.url("/small")).status());
      assertTrue(heads.thread.get().getName().startsWith("strand-io"), heads.thread.get().getName());
    }
  }

  @Test
  void aMisspelledDrivePropertyFailsTheBuild() {
    System.setProperty(EventLoops.DRIVE_PROPERTY, "callers");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Client.builder().build());
    assertTrue(e.getMessage().contains("strand.io.drive=callers"), e.getMessage());
  }

  /**
   * A virtual thread runs its idle loop only while a carrier is to spare: with as many virtual threads in
   * blocking calls as there are carriers, a quick response is read on the loop's own thread, not on the
   * caller's. Alone, a virtual thread reads it itself when there are two carriers or more.
   */
  @Test
  void aVirtualThreadRunsTheLoopOnlyWhileACarrierIsToSpare() throws Exception {
    int carriers = Integer.getInteger(
        "jdk.virtualThreadScheduler.parallelism", Runtime.getRuntime().availableProcessors());
    HeadThread heads = new HeadThread();
    try (Client quick = Client.builder().eventListener(heads).build();
        Client slow = Client.builder().build();
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      quick.get(server.url("/small"));
      // A virtual thread drives for a millisecond at most, and the first calls of a fresh JVM (the server's too)
      // may be answered later than that: then the own thread reads. So a few tries; with one carrier, none.
      boolean readAlone = false;
      for (int attempt = 0; attempt < 5 && !readAlone; attempt++) {
        lettingGo();
        Thread alone = threads.submit(() -> {
          quick.get(server.url("/small"));
          return Thread.currentThread();
        }).get(5, TimeUnit.SECONDS);
        readAlone = heads.thread.get() == alone;
      }
      assertEquals(carriers > 1, readAlone, "read on " + heads.thread.get());

      List<Future<Integer>> waiting = new ArrayList<>();
      for (int i = 0; i < carriers - 1; i++) {
        waiting.add(threads.submit(() -> slow.get(server.url("/delay/1000")).status()));
      }
      Thread.sleep(200); // they are in their calls now, their requests out
      lettingGo();
      Thread last = threads.submit(() -> {
        quick.get(server.url("/small"));
        return Thread.currentThread();
      }).get(5, TimeUnit.SECONDS);
      assertNotEquals(last, heads.thread.get());
      assertTrue(heads.thread.get().getName().startsWith("strand-io"), heads.thread.get().getName());
      for (Future<Integer> call : waiting) {
        assertEquals(200, call.get(10, TimeUnit.SECONDS));
      }
    }
  }

  /**
   * More virtual threads than carriers each run their own client's idle loop while the server takes half a
   * second: were they to wait in the kernel all that time, every carrier would be held and a new virtual
   * thread could not start until the responses came.
   */
  @Test
  void virtualThreadsWaitingOnASlowServerLeaveTheCarriersFree() throws Exception {
    int callers = Runtime.getRuntime().availableProcessors() + 2;
    List<Client> clients = new ArrayList<>();
    List<Future<Integer>> calls = new ArrayList<>();
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      CountDownLatch waiting = new CountDownLatch(callers);
      for (int i = 0; i < callers; i++) {
        Client client = Client.builder().build();
        clients.add(client);
        client.get(server.url("/small")); // an idle connection, so the call runs the loop itself
        calls.add(threads.submit(() -> {
          waiting.countDown();
          return client.get(server.url("/delay/500")).status();
        }));
      }
      assertTrue(waiting.await(5, TimeUnit.SECONDS));
      Thread.sleep(50); // they are all in their calls now
      CountDownLatch ran = new CountDownLatch(1);
      long start = System.nanoTime();
      Thread.ofVirtual().start(ran::countDown);
      assertTrue(ran.await(5, TimeUnit.SECONDS));
      long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(waitedMillis < 200, "a new virtual thread waited " + waitedMillis + " ms for a carrier");
      for (Future<Integer> call : calls) {
        assertEquals(200, call.get(10, TimeUnit.SECONDS));
      }
    } finally {
      clients.forEach(Client::close);
    }
  }
}
