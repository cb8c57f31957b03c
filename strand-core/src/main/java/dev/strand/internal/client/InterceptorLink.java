package dev.strand.internal.client;

import dev.strand.Interceptor;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.TransportException;
import java.util.concurrent.CompletableFuture;

/** A user's {@link Interceptor} as a link: its chain goes on to the next link with the same call. */
final class InterceptorLink implements Link {
  private final Interceptor interceptor;
  private final Link next;

  InterceptorLink(Interceptor interceptor, Link next) {
    this.interceptor = interceptor;
    this.next = next;
  }

  @Override
  public CompletableFuture<StreamingResponse> proceed(Call call, Request request) {
    CompletableFuture<StreamingResponse> response;
    try {
      response = interceptor.intercept(new Chain(call, request));
    } catch (RuntimeException | Error e) {
      return CompletableFuture.failedFuture(e);
    } catch (Exception e) { // checked, thrown sneakily
      return CompletableFuture.failedFuture(new TransportException(
          "interceptor " + interceptor + " failed: " + e, request, e));
    }
    if (response == null) {
      return CompletableFuture.failedFuture(new IllegalStateException(
          "interceptor " + interceptor + " returned null instead of a future (" + request + ")"));
    }
    return response;
  }

  private final class Chain implements Interceptor.Chain {
    private final Call call;
    private final Request request;

    Chain(Call call, Request request) {
      this.call = call;
      this.request = request;
    }

    @Override
    public Request request() {
      return request;
    }

    @Override
    public CompletableFuture<StreamingResponse> proceed(Request request) {
      if (request == null) {
        return CompletableFuture.failedFuture(new IllegalArgumentException(
            "interceptor " + interceptor + " proceeded with a null request"));
      }
      try {
        return next.proceed(call, request);
      } catch (RuntimeException e) {
        return CompletableFuture.failedFuture(e);
      }
    }

    @Override
    public int attempt() {
      return call.attempt;
    }
  }
}
