package dev.strand.cli;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * {@code -Z/--parallel}: the URLs' transfers at once (at most {@code --parallel-max}, default 50), each on
 * a virtual thread of its own.
 *
 * @implNote Unlike curl, whose parallel bodies interleave on stdout, each transfer's stdout and stderr are
 *     kept until it ends and then written whole, so outputs never mix; files named by -o or -O are written
 *     as the bytes arrive.
 */
final class Parallel {
  private Parallel() {}

  static int run(Options all, OutputStream stdout, PrintStream stderr, Terminal terminal) {
    Semaphore slots = new Semaphore(all.parallelMax);
    Object printing = new Object();
    List<Future<Integer>> transfers = new ArrayList<>();
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < all.urls.size(); i++) {
        Options one = all.forUrl(i);
        transfers.add(threads.submit(() -> {
          slots.acquire();
          try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
            PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
            int code = Main.transfer(one, out, err, Terminal.PIPES);
            synchronized (printing) {
              out.writeTo(stdout);
              stdout.flush();
              stderr.print(errBytes.toString(StandardCharsets.UTF_8));
              stderr.flush();
            }
            return code;
          } finally {
            slots.release();
          }
        }));
      }
      int code = Failures.OK;
      for (Future<Integer> t : transfers) {
        code = t.get();
      }
      return code;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Failures.INTERNAL;
    } catch (ExecutionException e) {
      stderr.println("strand: " + e.getMessage());
      return Failures.INTERNAL;
    }
  }
}
