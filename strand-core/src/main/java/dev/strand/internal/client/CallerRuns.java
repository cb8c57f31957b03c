package dev.strand.internal.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.LockSupport;

/**
 * The executor of one blocking call: its tasks run on the calling thread while it waits for the call's future
 * ({@link #runUntilDone}, as gRPC's {@code ThreadlessExecutor} does), so a blocking call's application
 * interceptors run where the caller does and cost no other thread. A task that arrives after the caller stopped
 * waiting (it was interrupted) runs on a virtual thread.
 */
public final class CallerRuns implements Executor {
  private final Thread caller = Thread.currentThread();
  private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
  private volatile boolean waiting = true;

  @Override
  public void execute(Runnable task) {
    if (!waiting) {
      ClientEngine.VIRTUAL_THREADS.execute(task);
      return;
    }
    tasks.add(task);
    LockSupport.unpark(caller);
    if (!waiting && tasks.remove(task)) { // the caller left between the check and the add
      ClientEngine.VIRTUAL_THREADS.execute(task);
    }
  }

  /**
   * Runs the tasks that arrive until {@code future} is done. False if the caller was interrupted first (its
   * interrupt flag is then cleared: the caller decides what an interrupt means).
   */
  public boolean runUntilDone(CompletableFuture<?> future) {
    future.whenComplete((value, error) -> LockSupport.unpark(caller));
    try {
      while (true) {
        Runnable task;
        while ((task = tasks.poll()) != null) {
          task.run();
        }
        if (future.isDone()) {
          return true;
        }
        LockSupport.park(this);
        if (Thread.interrupted()) {
          return false;
        }
      }
    } finally {
      waiting = false;
      Runnable late;
      while ((late = tasks.poll()) != null) {
        ClientEngine.VIRTUAL_THREADS.execute(late);
      }
    }
  }
}
