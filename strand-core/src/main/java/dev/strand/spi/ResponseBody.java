package dev.strand.spi;

import dev.strand.Headers;
import dev.strand.ProtocolException;
import dev.strand.ReadTimeoutException;
import dev.strand.Response;
import dev.strand.StreamingResponse;
import dev.strand.TransportException;
import java.util.concurrent.CompletableFuture;

/**
 * The body of a response as a {@link Transport} delivers it. Exactly one of {@link #readAll} or a
 * sequence of {@link #readChunk()} calls consumes it; {@link #close()} releases what is left. A
 * connection goes back to its pool when the body has been read to the end, and is discarded when
 * it is closed before that.
 *
 * <p>Implemented by transports; users read bodies through {@link Response} and {@link StreamingResponse}.
 */
public interface ResponseBody extends AutoCloseable {
  /** Declared length in bytes, or {@code -1} if unknown. */
  long contentLength();

  /**
   * Reads the whole body without blocking the caller.
   *
   * @param maxBytes larger bodies fail the future with {@link ProtocolException} and are discarded
   */
  CompletableFuture<byte[]> readAll(long maxBytes);

  /**
   * Blocks until the next piece of the body arrives and returns it, or {@code null} at the end.
   * Only as much as the caller consumes is read from the network (backpressure).
   *
   * @throws TransportException (for example {@link ReadTimeoutException}) if reading fails
   */
  byte[] readChunk();

  /**
   * Trailer fields sent after the body (HTTP/2 trailers, or those of a chunked HTTP/1.1 body);
   * known once the body has been read to its end, {@link Headers#EMPTY} before that or if there are none.
   */
  default Headers trailers() {
    return Headers.EMPTY;
  }

  /** Stops reading; unread content is discarded with its connection. Idempotent. */
  @Override
  void close();

  /** A body already in memory (for mock transports and tests). */
  static ResponseBody of(byte[] content) {
    return new InMemoryResponseBody(content);
  }
}
