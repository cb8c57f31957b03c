package dev.strand.spi;

import dev.strand.ProtocolException;
import java.util.concurrent.CompletableFuture;

/** A response body that is already in memory: read whole or as one chunk. */
final class InMemoryResponseBody implements ResponseBody {
  private final byte[] content;
  private boolean consumed;

  InMemoryResponseBody(byte[] content) {
    this.content = content;
  }

  @Override
  public long contentLength() {
    return content.length;
  }

  @Override
  public synchronized CompletableFuture<byte[]> readAll(long maxBytes) {
    if (content.length > maxBytes) {
      consumed = true;
      return CompletableFuture.failedFuture(new ProtocolException(
          "response body of " + content.length + " bytes exceeds the limit of " + maxBytes, null));
    }
    consumed = true;
    return CompletableFuture.completedFuture(content);
  }

  @Override
  public synchronized byte[] readChunk() {
    if (consumed || content.length == 0) {
      consumed = true;
      return null;
    }
    consumed = true;
    return content;
  }

  @Override
  public synchronized void close() {
    consumed = true;
  }
}
