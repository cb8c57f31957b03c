package dev.strand.internal.client;

import dev.strand.Headers;
import dev.strand.ResponseBody;
import java.util.concurrent.CompletableFuture;

/**
 * A streamed body under the call's deadline: reading it past the deadline fails with the call's
 * {@link dev.strand.CallTimeoutException} (the deadline closed the body underneath, which a reader
 * would otherwise see as an early end), and reading it to the end or closing it stops the clock.
 */
final class DeadlineBody implements ResponseBody {
  private final ResponseBody body;
  private final Call call;

  DeadlineBody(ResponseBody body, Call call) {
    this.body = body;
    this.call = call;
  }

  @Override
  public long contentLength() {
    return body.contentLength();
  }

  @Override
  public CompletableFuture<byte[]> readAll(long maxBytes) {
    return body.readAll(maxBytes).handle((bytes, error) -> {
      call.disarm();
      Throwable failure = call.expired() != null ? call.expired() : error;
      return failure != null ? CompletableFuture.<byte[]>failedFuture(failure) : CompletableFuture.completedFuture(bytes);
    }).thenCompose(f -> f);
  }

  @Override
  public byte[] readChunk() {
    byte[] chunk;
    try {
      chunk = body.readChunk();
    } catch (RuntimeException e) {
      call.disarm();
      throw call.expired() != null ? call.expired() : e;
    }
    if (call.expired() != null) {
      throw call.expired();
    }
    if (chunk == null) {
      call.disarm();
    }
    return chunk;
  }

  @Override
  public Headers trailers() {
    return body.trailers();
  }

  @Override
  public void close() {
    call.disarm();
    body.close();
  }
}
