package dev.strand.internal.client;

import java.util.concurrent.CompletableFuture;

/**
 * The future a caller gets. Cancelling it (directly, or by interrupting a blocked {@code send})
 * aborts the exchange in flight, because futures derived with {@code thenCompose} do not pass
 * cancellation back to their source.
 */
class CallFuture<T> extends CompletableFuture<T> {
  final Call call;

  CallFuture(Call call) {
    this.call = call;
  }

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    boolean cancelled = super.cancel(mayInterruptIfRunning);
    if (cancelled) {
      call.cancel();
    }
    return cancelled;
  }

  @Override
  public <U> CompletableFuture<U> newIncompleteFuture() {
    // Dependents are plain futures: cancelling one of them must not abort the call.
    return new CompletableFuture<>();
  }
}
