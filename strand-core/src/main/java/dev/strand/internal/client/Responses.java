package dev.strand.internal.client;

import dev.strand.Response;
import dev.strand.StreamingResponse;
import dev.strand.spi.StreamingResponses;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Turning streamed responses into read ones. */
final class Responses {
  /** Redirect and challenge bodies up to this size are kept; larger ones are discarded with their connection. */
  static final int SMALL_BODY = 64 * 1024;
  private static final byte[] EMPTY = new byte[0];

  private Responses() {}

  static Response of(StreamingResponse r, byte[] body, long startNanos, List<Response> history) {
    return Response.builder(r.status())
        .reason(r.reason())
        .headers(r.headers())
        .version(r.version())
        .body(body)
        .request(r.request())
        .elapsed(Duration.ofNanos(System.nanoTime() - startNanos))
        .history(history)
        .trailers(r.trailers())
        .sslSession(r.sslSession().orElse(null))
        .build();
  }

  /**
   * Reads a small intermediate response (a redirect, a 401 that is answered) so its connection is
   * reused. A body too large or failing to arrive is dropped; the call goes on without it.
   */
  static CompletableFuture<Response> drain(StreamingResponse r, long startNanos) {
    return StreamingResponses.body(r).readAll(SMALL_BODY).handle((bytes, error) -> {
      if (error != null) {
        r.close();
      }
      return of(r, error == null ? bytes : EMPTY, startNanos, List.of());
    });
  }
}
