package dev.strand.internal.netty;

import dev.strand.StreamingResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;

/**
 * The caller's future for a request whose response may make the transport send it again (a proxy's 407, a 421
 * on a shared connection). Cancelling it cancels whichever exchange is current, the first or a later one.
 *
 * <p>Every plain-http request takes this path (any of them may meet a forwarding proxy), so it is one object
 * that is both the future and the first exchange's completion, where futures composed for the purpose cost a
 * dozen objects and three more stages on every response.
 */
final class FollowUps extends CompletableFuture<StreamingResponse> implements BiConsumer<StreamingResponse, Throwable> {
  /** Given the first response: the future of the request sent again, or {@code null} when the response is final. */
  interface Decision {
    CompletableFuture<StreamingResponse> followUp(StreamingResponse first, FollowUps followUps);
  }

  private final Decision decision;
  private volatile CompletableFuture<StreamingResponse> current;

  /** Follows {@code first}, the first exchange's future, with what {@code decision} sends after it. */
  FollowUps(CompletableFuture<StreamingResponse> first, Decision decision) {
    this.decision = decision;
    this.current = first;
    first.whenComplete(this);
  }

  /** The first exchange's outcome. */
  @Override
  public void accept(StreamingResponse r, Throwable error) {
    if (error != null) {
      fail(error);
      return;
    }
    CompletableFuture<StreamingResponse> next;
    try {
      next = decision.followUp(r, this);
    } catch (RuntimeException e) {
      r.close();
      completeExceptionally(e);
      return;
    }
    if (next == null) {
      deliver(r);
    } else {
      next.whenComplete((last, lastError) -> {
        if (lastError != null) {
          fail(lastError);
        } else {
          deliver(last);
        }
      });
    }
  }

  /** {@code next} is now the current exchange (cancelled at once if the caller has given up already). */
  CompletableFuture<StreamingResponse> track(CompletableFuture<StreamingResponse> next) {
    current = next;
    if (isCancelled()) {
      next.cancel(true);
    }
    return next;
  }

  private void deliver(StreamingResponse r) {
    if (!complete(r)) {
      r.close(); // cancelled while the answer was on its way: nobody will read it
    }
  }

  private void fail(Throwable error) {
    completeExceptionally(error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error);
  }

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    boolean cancelled = super.cancel(mayInterruptIfRunning);
    if (cancelled) {
      current.cancel(true);
    }
    return cancelled;
  }

  @Override
  public <U> CompletableFuture<U> newIncompleteFuture() {
    // Dependents are plain futures: cancelling one of them must not cancel the exchange.
    return new CompletableFuture<>();
  }
}
