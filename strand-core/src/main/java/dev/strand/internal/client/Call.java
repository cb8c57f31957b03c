package dev.strand.internal.client;

import dev.strand.CallTimeoutException;
import dev.strand.Request;
import dev.strand.Response;
import dev.strand.internal.events.CallEvents;
import dev.strand.spi.ResponseBody;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

/**
 * What one call accumulates while its links run: redirect count and history, the attempt, when the
 * current hop started, its deadline, and what to abort if the caller cancels or the deadline passes.
 * Links of one call run one after another (each continues the previous one's future), so only the
 * cancellation and deadline fields are shared across threads.
 */
final class Call {
  // A field and a handle rather than an AtomicBoolean: one object less for every call in flight.
  private static final VarHandle ENDED;

  static {
    try {
      ENDED = MethodHandles.lookup().findVarHandle(Call.class, "ended", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Where the application interceptors' code goes on once a response arrives ({@link HandOffLink}). */
  final java.util.concurrent.Executor interceptorThread;

  Call(java.util.concurrent.Executor interceptorThread) {
    this.interceptorThread = interceptorThread;
  }

  /** The request as the redirect step sent it for the current hop (before cookies and hooks). */
  Request hopRequest;
  long hopStartNanos;
  int redirects;
  /** 1 for the first attempt of the current hop, counting up as {@link RetryLink} retries it. */
  int attempt = 1;
  private List<Response> history;

  private volatile boolean cancelled;
  private volatile CompletableFuture<?> inFlight;
  private volatile ResponseBody body;

  /** The metered body of the latest hop (see {@link MeteredBody#activate}), or {@code null}. */
  MeteredBody meteredBody;

  /** The listener's side of this call, or {@code null} when the client has no listener. */
  CallEvents events;
  /** Whether the listener heard callEnd or callFailed; set once, through {@link #ENDED}. */
  @SuppressWarnings("unused")
  private volatile boolean ended;

  /** The call's total time limit, or {@code null} for a call without one (most): apart, so those carry no fields for it. */
  private volatile Deadline deadline;

  private static final class Deadline {
    final long atNanos;
    ScheduledFuture<?> timer;
    volatile CallTimeoutException expired;

    Deadline(long atNanos) {
      this.atNanos = atNanos;
    }
  }

  /**
   * Starts the call's clock ({@link dev.strand.Timeout#call()}): when {@code limit} has passed, {@code onExpiry}
   * gets the exception and the call is cancelled, which releases whatever it holds.
   */
  void deadline(Duration limit, Request request, java.util.function.Consumer<CallTimeoutException> onExpiry) {
    Deadline d = new Deadline(System.nanoTime() + limit.toNanos());
    d.timer = Timers.schedule(limit, () -> {
      CallTimeoutException e = new CallTimeoutException("call exceeded its total time limit of "
          + seconds(limit) + " (Timeout.call) " + (body == null ? "before the response arrived" : "while reading the body")
          + " (" + request + ")", request);
      d.expired = e;
      onExpiry.accept(e);
      cancel();
    });
    deadline = d;
  }

  boolean hasDeadline() {
    return deadline != null;
  }

  /** Whether waiting {@code wait} from now would pass the deadline. */
  boolean wouldExpire(Duration wait) {
    return deadline != null && System.nanoTime() + wait.toNanos() - deadline.atNanos >= 0;
  }

  /** The deadline's exception once it has passed, else {@code null}. */
  CallTimeoutException expired() {
    Deadline d = deadline;
    return d == null ? null : d.expired;
  }

  /** The call succeeded and its body was read or closed: the deadline stops, the listener hears callEnd (once). */
  void end() {
    disarm();
    if (events != null && ENDED.compareAndSet(this, false, true)) {
      events.callEnd();
    }
  }

  /** The call failed with {@code failure}: the deadline stops, the listener hears callFailed (once). */
  void failed(Throwable failure) {
    disarm();
    if (events != null && ENDED.compareAndSet(this, false, true)) {
      events.callFailed(failure);
    }
  }

  /** The call is over (its body read or closed, or its future done): the deadline no longer applies. */
  void disarm() {
    Deadline d = deadline;
    ScheduledFuture<?> t = d == null ? null : d.timer;
    if (t != null) {
      t.cancel(false);
    }
  }

  void startRedirects() {
    redirects = 0;
    history = null;
  }

  void addHistory(Response response) {
    if (history == null) {
      history = new ArrayList<>(2);
    }
    history.add(response);
  }

  List<Response> history() {
    return history == null ? List.of() : history;
  }

  boolean isCancelled() {
    return cancelled;
  }

  /** Remembers the transport's future so cancelling the call cancels the exchange. */
  void inFlight(CompletableFuture<?> future) {
    inFlight = future;
    if (cancelled) {
      future.cancel(true);
    }
  }

  /** Remembers the body being read so cancelling the call releases its connection. */
  void reading(ResponseBody responseBody) {
    body = responseBody;
    if (cancelled) {
      responseBody.close();
    }
  }

  void cancel() {
    cancelled = true;
    CompletableFuture<?> f = inFlight;
    if (f != null) {
      f.cancel(true);
    }
    ResponseBody b = body;
    if (b != null) {
      b.close();
    }
  }

  private static String seconds(Duration d) {
    long tenths = Math.round(d.toNanos() / 100_000_000.0);
    return (tenths / 10) + "." + (tenths % 10) + " s";
  }
}
