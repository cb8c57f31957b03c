package dev.strand.internal.cache;

import dev.strand.Headers;
import dev.strand.spi.ResponseBody;
import java.io.ByteArrayOutputStream;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A body that keeps a copy of what its reader takes and hands it to {@code complete} once read to the
 * end, so a response is stored while the caller reads it, whichever way. A body closed early, failing,
 * or longer than {@code limit} is not stored.
 */
final class CachingBody implements ResponseBody {
  private final ResponseBody body;
  private final int limit;
  private final Consumer<byte[]> complete;
  private ByteArrayOutputStream copy = new ByteArrayOutputStream();

  CachingBody(ResponseBody body, int limit, Consumer<byte[]> complete) {
    this.body = body;
    this.limit = limit;
    this.complete = complete;
  }

  @Override
  public long contentLength() {
    return body.contentLength();
  }

  @Override
  public CompletableFuture<byte[]> readAll(long maxBytes) {
    return body.readAll(maxBytes).thenApply(bytes -> {
      if (bytes.length <= limit) {
        complete.accept(bytes);
      }
      return bytes;
    });
  }

  @Override
  public byte[] readChunk() {
    byte[] chunk = body.readChunk();
    synchronized (this) {
      if (copy == null) {
        return chunk;
      }
      if (chunk == null) {
        byte[] whole = copy.toByteArray();
        copy = null;
        complete.accept(whole);
      } else if (copy.size() + chunk.length > limit) {
        copy = null;
      } else {
        copy.write(chunk, 0, chunk.length);
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
    synchronized (this) {
      copy = null;
    }
    body.close();
  }
}
