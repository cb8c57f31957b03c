package dev.strand.internal.client;

import dev.strand.Headers;
import dev.strand.spi.ResponseBody;
import java.util.concurrent.CompletableFuture;

/**
 * The body of a streamed call's final response, which ends the call: reading it to the end or closing
 * it stops the call's deadline and tells the listener {@code callEnd} ({@link Call#end()}). Reading it
 * past the deadline fails with the call's {@link dev.strand.CallTimeoutException} (the deadline closed
 * the body underneath, which a reader would otherwise see as an early end).
 */
final class FinalBody implements ResponseBody {
  private final ResponseBody body;
  private final Call call;

  FinalBody(ResponseBody body, Call call) {
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
      call.end();
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
      call.end();
      throw call.expired() != null ? call.expired() : e;
    }
    if (call.expired() != null) {
      throw call.expired();
    }
    if (chunk == null) {
      call.end();
    }
    return chunk;
  }

  @Override
  public Headers trailers() {
    return body.trailers();
  }

  @Override
  public void close() {
    body.close();
    call.end();
  }
}
