package dev.strand.internal.client;

import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.TooManyRedirectsException;
import java.util.concurrent.CompletableFuture;

/**
 * Follows redirects as {@link Redirects#next} decides, reading each redirect response (small
 * bodies are kept) into the call's history so its connection is reused.
 */
final class RedirectLink implements Link {
  private final int maxRedirects;
  private final boolean allowHttpsToHttp;
  private final Link next;

  RedirectLink(int maxRedirects, boolean allowHttpsToHttp, Link next) {
    this.maxRedirects = maxRedirects;
    this.allowHttpsToHttp = allowHttpsToHttp;
    this.next = next;
  }

  @Override
  public CompletableFuture<StreamingResponse> proceed(Call call, Request request) {
    call.startRedirects(); // an interceptor that proceeds twice starts a new chain of hops
    return hop(call, request);
  }

  private CompletableFuture<StreamingResponse> hop(Call call, Request request) {
    call.hopRequest = request;
    return next.proceed(call, request).thenCompose(r -> follow(call, request, r));
  }

  private CompletableFuture<StreamingResponse> follow(Call call, Request request, StreamingResponse r) {
    Request nextRequest;
    try {
      nextRequest = Redirects.next(request, r, allowHttpsToHttp);
      if (nextRequest != null && call.redirects >= maxRedirects) {
        throw new TooManyRedirectsException("more than " + maxRedirects + " redirects; the last was " + r.status()
            + " from " + Urls.redacted(request.url()) + " to " + Urls.redacted(nextRequest.url()), request);
      }
    } catch (RuntimeException e) {
      r.close();
      throw e;
    }
    if (nextRequest == null) {
      return CompletableFuture.completedFuture(r);
    }
    call.redirects++;
    if (call.events != null) {
      call.events.redirect(r, nextRequest);
    }
    return Responses.drain(r, call.hopStartNanos).thenCompose(drained -> {
      call.addHistory(drained);
      return hop(call, nextRequest);
    });
  }
}
