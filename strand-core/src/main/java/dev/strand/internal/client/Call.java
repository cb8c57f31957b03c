package dev.strand.internal.client;

import dev.strand.Request;
import dev.strand.Response;
import dev.strand.ResponseBody;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What one call accumulates while its links run: redirect count and history, when the current hop
 * started, and what to abort if the caller cancels. Links of one call run one after another
 * (each continues the previous one's future), so only the cancellation fields are shared across threads.
 */
final class Call {
  /** The request as the redirect step sent it for the current hop (before cookies and hooks). */
  Request hopRequest;
  long hopStartNanos;
  int redirects;
  private List<Response> history;

  private volatile boolean cancelled;
  private volatile CompletableFuture<?> inFlight;
  private volatile ResponseBody body;

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
}
