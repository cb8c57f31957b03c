package dev.strand.internal.client;

import dev.strand.Request;
import dev.strand.StreamingResponse;
import java.util.concurrent.CompletableFuture;

/**
 * One step of the request path (auth, redirects, cookies, decompression, hooks, the transport).
 * Each link holds the next one, fixed when the client is built, so a call allocates no chain.
 */
interface Link {
  CompletableFuture<StreamingResponse> proceed(Call call, Request request);
}
