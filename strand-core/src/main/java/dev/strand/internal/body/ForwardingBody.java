package dev.strand.internal.body;

import dev.strand.Headers;
import dev.strand.spi.ResponseBody;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A body that hands every read to another one and tells a subclass what went by: each piece read
 * ({@link #read}), the end ({@link #ended}), a failure ({@link #failed}) and an early close ({@link
 * #closed}). Both ways of reading reach the same hooks, {@link #readAll} as one piece followed by the
 * end, so a view that watches the bytes is written once, whichever way its reader reads.
 *
 * <p>A hook may throw: what {@link #read} or {@link #ended} throws fails the read as the reader sees it,
 * and {@link #failed} chooses the exception the reader gets.
 */
public abstract class ForwardingBody implements ResponseBody {
  private final ResponseBody body;

  protected ForwardingBody(ResponseBody body) {
    this.body = body;
  }

  /** A piece of the body that the reader gets, in order. */
  protected void read(byte[] piece) {}

  /** The body was read to its end (after its last piece). */
  protected void ended() {}

  /** Reading failed with {@code failure}; returns the exception the reader gets (by default that one). */
  protected RuntimeException failed(RuntimeException failure) {
    return failure;
  }

  /** The reader closed the body (at its end or before). */
  protected void closed() {}

  @Override
  public final long contentLength() {
    return body.contentLength();
  }

  @Override
  public final CompletableFuture<byte[]> readAll(long maxBytes) {
    return body.readAll(maxBytes).handle((all, error) -> {
      if (error != null) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        throw new CompletionException(failed(cause instanceof RuntimeException e ? e : new CompletionException(cause)));
      }
      read(all);
      ended();
      return all;
    });
  }

  @Override
  public final byte[] readChunk() {
    byte[] piece;
    try {
      piece = body.readChunk();
    } catch (RuntimeException e) {
      throw failed(e);
    }
    if (piece == null) {
      ended();
    } else {
      read(piece);
    }
    return piece;
  }

  @Override
  public final Headers trailers() {
    return body.trailers();
  }

  @Override
  public final void close() {
    body.close();
    closed();
  }
}
