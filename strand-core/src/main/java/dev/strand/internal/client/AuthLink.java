package dev.strand.internal.client;

import dev.strand.Auth;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import java.util.concurrent.CompletableFuture;

/**
 * Applies the client's {@link Auth} once per call (outside redirects, so a hop to another origin
 * does not receive the credentials), and answers one 401 with {@link Auth#onChallenge}, if it came
 * from the origin the credentials are for.
 */
final class AuthLink implements Link {
  private final Auth auth;
  private final Link next;

  AuthLink(Auth auth, Link next) {
    this.auth = auth;
    this.next = next;
  }

  @Override
  public CompletableFuture<StreamingResponse> proceed(Call call, Request request) {
    Request authed = auth.apply(request);
    if (authed == null) {
      throw new IllegalStateException("Auth.apply returned null (" + auth + ")");
    }
    call.hopRequest = authed;
    return next.proceed(call, authed).thenCompose(r -> {
      if (r.status() != 401 || !Urls.sameOrigin(authed.url(), call.hopRequest.url())) {
        return CompletableFuture.completedFuture(r); // a challenge from where a redirect led is not answered
      }
      Request retry;
      try {
        retry = auth.onChallenge(call.hopRequest, r);
        if (retry != null && retry.body() != null && !retry.body().isRepeatable()) {
          throw new ProtocolException("cannot answer the 401 challenge for " + retry + ": the request body is a "
              + "one-shot stream already sent; use a repeatable RequestBody", retry);
        }
      } catch (RuntimeException e) {
        r.close();
        throw e;
      }
      if (retry == null) {
        return CompletableFuture.completedFuture(r);
      }
      return Responses.drain(r, call.hopStartNanos).thenCompose(answered -> next.proceed(call, retry));
    });
  }
}
