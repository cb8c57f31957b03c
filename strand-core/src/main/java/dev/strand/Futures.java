package dev.strand;

import dev.strand.internal.client.CallerRuns;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** The one place where a blocking call waits for the async path: sync is async plus this. */
final class Futures {
  private Futures() {}

  /**
   * Waits for {@code future}. Throws its {@link HttpException} as is (no ExecutionException
   * wrapping). An interrupted caller cancels the future, which aborts the exchange and releases its
   * connection, keeps its interrupt flag set, and gets a {@link TransportException}.
   */
  static <T> T await(CompletableFuture<T> future, Request request) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      throw interrupted(future, request, e);
    } catch (ExecutionException e) {
      throw unwrap(e.getCause(), request);
    } catch (CancellationException e) {
      throw new TransportException("cancelled: " + request, request, e);
    }
  }

  /** {@link #await}, running the call's tasks on this thread meanwhile ({@link CallerRuns}). */
  static <T> T await(CompletableFuture<T> future, Request request, CallerRuns caller) {
    if (!caller.runUntilDone(future)) {
      throw interrupted(future, request, new InterruptedException());
    }
    return await(future, request);
  }

  private static TransportException interrupted(CompletableFuture<?> future, Request request, InterruptedException e) {
    future.cancel(true);
    Thread.currentThread().interrupt();
    return new TransportException("interrupted while waiting for " + request, request, e);
  }

  static RuntimeException unwrap(Throwable t, Request request) {
    while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof RuntimeException re) {
      return re;
    }
    if (t instanceof Error err) {
      throw err;
    }
    return new TransportException(t.getMessage() == null ? t.toString() : t.getMessage(), request, t);
  }
}
