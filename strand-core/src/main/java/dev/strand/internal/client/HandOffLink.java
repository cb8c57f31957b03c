package dev.strand.internal.client;

import dev.strand.Request;
import dev.strand.StreamingResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;

/**
 * The boundary between the application interceptors and the rest of the pipeline: the response (or failure) is
 * handed to the call's interceptor thread ({@link Call#interceptorThread}) before the interceptors see it, so the
 * code they chain on {@code proceed} never runs on an I/O thread and may block. One hand-off per call (retries and
 * redirects happen inside), whatever the number of interceptors: the outer ones go on in the same thread.
 */
final class HandOffLink implements Link {
  private final Link next;

  HandOffLink(Link next) {
    this.next = next;
  }

  @Override
  public CompletableFuture<StreamingResponse> proceed(Call call, Request request) {
    CompletableFuture<StreamingResponse> inner = next.proceed(call, request);
    CompletableFuture<StreamingResponse> handedOff = new CompletableFuture<>();
    inner.whenComplete((response, error) -> {
      Runnable deliver = () -> {
        if (error != null) {
          handedOff.completeExceptionally(error);
        } else if (!handedOff.complete(response)) {
          response.close(); // cancelled meanwhile: nobody will read it
        }
      };
      try {
        call.interceptorThread.execute(deliver);
      } catch (RejectedExecutionException shutDown) {
        deliver.run(); // the user's executor is closed: late, on this thread, rather than never
      }
    });
    handedOff.whenComplete((response, error) -> {
      if (handedOff.isCancelled()) {
        inner.cancel(true);
      }
    });
    return handedOff;
  }
}
