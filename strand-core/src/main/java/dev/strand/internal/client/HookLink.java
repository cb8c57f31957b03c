package dev.strand.internal.client;

import dev.strand.Request;
import dev.strand.ResponseHead;
import dev.strand.StreamingResponse;
import dev.strand.TransportException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Runs the user's hooks around each hop: request hooks just before the transport, response hooks
 * on the head before the body (so they see the response as it came off the wire, still encoded).
 * A hook that throws fails the call with its exception; the response is closed first, so its
 * connection is released.
 */
final class HookLink implements Link {
  private final List<Consumer<Request>> requestHooks;
  private final List<Consumer<ResponseHead>> responseHooks;
  private final Link next;

  HookLink(List<Consumer<Request>> requestHooks, List<Consumer<ResponseHead>> responseHooks, Link next) {
    this.requestHooks = requestHooks;
    this.responseHooks = responseHooks;
    this.next = next;
  }

  @Override
  public CompletableFuture<StreamingResponse> proceed(Call call, Request request) {
    for (int i = 0; i < requestHooks.size(); i++) {
      Consumer<Request> hook = requestHooks.get(i);
      try {
        hook.accept(request);
      } catch (RuntimeException e) {
        return CompletableFuture.failedFuture(e);
      } catch (Exception e) { // checked, thrown sneakily
        return CompletableFuture.failedFuture(failure("request", i, hook, e, request));
      }
    }
    CompletableFuture<StreamingResponse> response = next.proceed(call, request);
    if (responseHooks.isEmpty()) {
      return response;
    }
    return response.thenApply(r -> {
      for (int i = 0; i < responseHooks.size(); i++) {
        Consumer<ResponseHead> hook = responseHooks.get(i);
        try {
          hook.accept(r);
        } catch (RuntimeException e) {
          r.close();
          throw e;
        } catch (Exception e) {
          r.close();
          throw failure("response", i, hook, e, request);
        }
      }
      return r;
    });
  }

  private static TransportException failure(String kind, int index, Object hook, Exception e, Request request) {
    return new TransportException(kind + " hook #" + (index + 1) + " (" + hook + ") failed: " + e, request, e);
  }
}
