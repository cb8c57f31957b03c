package dev.strand.internal.netty;

import dev.strand.StreamingResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A request whose response may make the transport send it again (a proxy's 407, a 421 on a shared connection):
 * one future for the caller, and cancelling it cancels whichever exchange is current, the first or a later one.
 */
final class FollowUps {
  private final CompletableFuture<StreamingResponse> result = new CompletableFuture<>();
  private final AtomicReference<CompletableFuture<StreamingResponse>> current;

  FollowUps(CompletableFuture<StreamingResponse> first) {
    current = new AtomicReference<>(first);
    result.whenComplete((r, error) -> {
      if (result.isCancelled()) {
        current.get().cancel(true);
      }
    });
  }

  /** {@code next} is now the current exchange (cancelled at once if the caller has given up already). */
  CompletableFuture<StreamingResponse> track(CompletableFuture<StreamingResponse> next) {
    current.set(next);
    if (result.isCancelled()) {
      next.cancel(true);
    }
    return next;
  }

  /** The caller's future, completed as {@code last} is. */
  CompletableFuture<StreamingResponse> then(CompletableFuture<StreamingResponse> last) {
    last.whenComplete((r, error) -> {
      if (error != null) {
        result.completeExceptionally(error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error);
      } else if (!result.complete(r)) {
        r.close(); // cancelled while the answer was on its way: nobody will read it
      }
    });
    return result;
  }
}
