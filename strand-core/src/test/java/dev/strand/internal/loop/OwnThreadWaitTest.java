package dev.strand.internal.loop;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.IoHandler;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.util.concurrent.ThreadAwareExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The own thread's wait on epoll: a wake ends one wait, whichever of its two sets it waits on, and is spent. */
class OwnThreadWaitTest {

  private static final long LONG = TimeUnit.SECONDS.toNanos(5);
  private static final long SHORT = TimeUnit.MILLISECONDS.toNanos(200);

  @Test
  void aWakeEndsTheNextWaitForIoOnceAndIsThenSpent() {
    IoHandler handler = EpollIoHandler.newFactory().newHandler(new ThisThread());
    handler.initialize();
    OwnThreadWait wait = OwnThreadWait.of(handler);
    try {
      assertTrue(wait.watchesIo(), "the epoll watch was not set up: " + wait.getClass().getSimpleName());
      for (boolean io : new boolean[] {true, false}) {
        wait.wake(Thread.currentThread());
        long woken = millis(() -> wait.await(LONG, io));
        assertTrue(woken < 1_000, "a wake did not end a wait" + (io ? " for I/O: " : ": ") + woken + " ms");

        // Nothing woke it since, and the loop has no I/O: had the wake been left unread, this returns at once.
        long idle = millis(() -> wait.await(SHORT, io));
        assertTrue(idle >= 150, "the wake was not spent" + (io ? " by a wait for I/O: " : ": ") + idle + " ms");
      }
    } finally {
      wait.close();
      handler.destroy();
    }
  }

  private static long millis(Runnable r) {
    long t0 = System.nanoTime();
    r.run();
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
  }

  /** The handler's executor: the test's thread, which alone uses it. */
  private static final class ThisThread implements ThreadAwareExecutor {
    private final Thread thread = Thread.currentThread();

    @Override
    public boolean isExecutorThread(Thread t) {
      return t == thread;
    }

    @Override
    public void execute(Runnable task) {
      task.run();
    }
  }
}
