package dev.strand.internal.client;

import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.internal.coding.ContentEncodings;
import java.util.concurrent.CompletableFuture;

/** Wraps each response body in a decoding view of its Content-Encoding. */
final class DecompressLink implements Link {
  private final Link next;

  DecompressLink(Link next) {
    this.next = next;
  }

  @Override
  public CompletableFuture<StreamingResponse> proceed(Call call, Request request) {
    return next.proceed(call, request).thenApply(r -> ContentEncodings.decode(r, request));
  }
}
