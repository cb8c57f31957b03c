package dev.strand.internal.client;

import dev.strand.Request;
import dev.strand.StreamingResponse;
import java.net.URI;
import java.util.concurrent.CompletableFuture;

/**
 * Upgrades http requests to known HSTS hosts to https, and learns {@code Strict-Transport-Security} from https
 * responses. Inside the redirect link, so each hop is upgraded and each hop's answer recorded.
 */
final class HstsLink implements Link {
  private final HstsStore store;
  private final Link next;

  HstsLink(HstsStore store, Link next) {
    this.store = store;
    this.next = next;
  }

  @Override
  public CompletableFuture<StreamingResponse> proceed(Call call, Request request) {
    URI upgraded = store.upgrade(request.url(), System.currentTimeMillis());
    Request sent = upgraded == null ? request
        : Requests.with(request, request.method(), upgraded, request.headers(), request.body());
    return next.proceed(call, sent).thenApply(r -> {
      store.record(sent.url(), r.headers().first("Strict-Transport-Security"), System.currentTimeMillis());
      return r;
    });
  }
}
