package dev.strand.internal.sse;

import dev.strand.EventStream;
import dev.strand.HttpException;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.TransportException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * Reopens an event stream as {@code EventSource} does: waits, resends the request with
 * {@code Last-Event-ID}, and retries connection failures with a doubling wait. Runs on the reading
 * thread; {@link #stop()} (the stream's close, from any thread) ends a wait or an attempt in progress.
 */
public final class Reconnector {
  private final Request request;
  private final EventStream.Reconnect settings;
  private final Function<Request, CompletableFuture<StreamingResponse>> open;
  // A j.u.c. lock, not a monitor: a virtual thread waiting here on JDK 21-23 would pin its carrier.
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition stoppedOrDue = lock.newCondition();
  private boolean stopped;
  private CompletableFuture<StreamingResponse> opening;

  public Reconnector(Request request, EventStream.Reconnect settings,
      Function<Request, CompletableFuture<StreamingResponse>> open) {
    this.request = request;
    this.settings = settings;
    this.open = open;
  }

  /**
   * The next response of the stream (a 2xx event stream or a 204), or {@code null} once stopped.
   *
   * @param cause why the last connection ended, {@code null} if the server ended it
   * @param serverRetry the server's {@code retry:} time, or {@code null}
   * @throws HttpException a status other than an event stream or 204, or the last failure after
   *     {@code maxAttempts} failed attempts
   */
  public StreamingResponse reopen(HttpException cause, String lastEventId, Duration serverRetry) {
    Request again = lastEventId.isEmpty() ? request : request.toBuilder().setHeader("Last-Event-ID", lastEventId).build();
    Duration wait = serverRetry != null ? serverRetry : settings.delay();
    HttpException last = cause;
    for (int attempt = 1; ; attempt++) {
      if (settings.onReconnect() != null) {
        try {
          settings.onReconnect().onReconnect(attempt, wait, last);
        } catch (RuntimeException ignored) { // a listener must not end the stream
        }
      }
      if (!sleep(wait)) {
        return null;
      }
      CompletableFuture<StreamingResponse> f;
      lock.lock();
      try {
        if (stopped) {
          return null;
        }
        f = opening = open.apply(again);
      } finally {
        lock.unlock();
      }
      try {
        return f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        f.cancel(true);
        throw new TransportException("interrupted while reconnecting the event stream (" + again + ")", again, e);
      } catch (CancellationException e) {
        return null; // stopped
      } catch (ExecutionException | CompletionException e) {
        Throwable t = e.getCause() != null ? e.getCause() : e;
        if (!(t instanceof TransportException te) || t instanceof ProtocolException) {
          throw t instanceof RuntimeException re ? re : new TransportException(String.valueOf(t), again, t);
        }
        if (attempt >= settings.maxAttempts()) {
          if (cause != null && cause != te) {
            te.addSuppressed(cause);
          }
          throw te;
        }
        last = te;
        wait = doubled(wait);
      } finally {
        lock.lock();
        try {
          opening = null;
        } finally {
          lock.unlock();
        }
      }
    }
  }

  /** Ends a wait or an attempt in progress; later calls of {@link #reopen} return {@code null}. */
  public void stop() {
    CompletableFuture<StreamingResponse> f;
    lock.lock();
    try {
      stopped = true;
      f = opening;
      stoppedOrDue.signalAll();
    } finally {
      lock.unlock();
    }
    if (f != null) {
      f.cancel(true);
    }
  }

  private Duration doubled(Duration wait) {
    Duration twice = wait.isZero() ? Duration.ofMillis(100) : wait.multipliedBy(2);
    return twice.compareTo(settings.maxDelay()) > 0 ? settings.maxDelay() : twice;
  }

  /** Waits, unless stopped; false if stopped. */
  private boolean sleep(Duration wait) {
    long left = wait.toNanos();
    lock.lock();
    try {
      while (!stopped) {
        if (left <= 0) {
          return true;
        }
        left = stoppedOrDue.awaitNanos(left);
      }
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      lock.unlock();
    }
  }
}
