package dev.strand.internal.client;

import dev.strand.Headers;
import dev.strand.internal.events.CallEvents;
import dev.strand.spi.ResponseBody;
import java.util.concurrent.CompletableFuture;

/**
 * A body as the transport delivered it, counted for the event listener: at its end the listener hears
 * {@code responseBodyReceived} with the bytes off the wire and {@code connectionReleased}; closed early,
 * only the latter.
 */
final class ObservedBody implements ResponseBody {
  private final ResponseBody body;
  private final CallEvents events;
  private long bytes;
  private boolean finished;

  ObservedBody(ResponseBody body, CallEvents events) {
    this.body = body;
    this.events = events;
  }

  @Override
  public long contentLength() {
    return body.contentLength();
  }

  @Override
  public CompletableFuture<byte[]> readAll(long maxBytes) {
    return body.readAll(maxBytes).whenComplete((all, error) -> finish(error == null ? all.length : -1));
  }

  @Override
  public byte[] readChunk() {
    byte[] chunk;
    try {
      chunk = body.readChunk();
    } catch (RuntimeException e) {
      finish(-1);
      throw e;
    }
    if (chunk == null) {
      finish(bytes);
    } else {
      synchronized (this) {
        bytes += chunk.length;
      }
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
    finish(-1);
  }

  /** Once: the body ended with {@code total} bytes, or stopped early ({@code -1}). */
  private void finish(long total) {
    synchronized (this) {
      if (finished) {
        return;
      }
      finished = true;
    }
    if (total >= 0) {
      events.responseBodyReceived(total);
    }
    events.connectionReleased();
  }
}
