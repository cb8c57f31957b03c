package dev.strand.internal.client;

import dev.strand.Headers;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.TransportException;
import dev.strand.spi.ResponseBody;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * A response body as the transport delivered it (before decoding), counted for a download
 * {@link ProgressReporter} and paced by a {@link Throttle}. Pacing delays each chunk's hand-over to the reader;
 * the transport stops reading from the socket when its buffer fills, so the wire follows. {@link #readAll} reads
 * chunk by chunk on a virtual thread, so a buffered call is counted and paced too, off the event loop.
 *
 * <p>The count is reported once {@link #activate()} says this is the body the caller gets (not a redirect's
 * or a challenge's, which are drained): the listener sees one body's count, growing.
 */
final class MeteredBody implements ResponseBody {
  private final ResponseBody body;
  private final Request request;
  private final ProgressReporter reporter;
  private final Throttle throttle;
  private final long total;
  private volatile long count;
  private volatile boolean active;
  private volatile boolean ended;

  MeteredBody(ResponseBody body, Request request, ProgressReporter reporter, Throttle throttle) {
    this.body = body;
    this.request = request;
    this.reporter = reporter;
    this.throttle = throttle;
    this.total = body.contentLength();
  }

  /** From now on counts reach the listener, starting with the count so far. */
  void activate() {
    if (reporter != null && !active) {
      active = true;
      reporter.report(count, ended ? count : total);
    }
  }

  @Override
  public long contentLength() {
    return total;
  }

  @Override
  public byte[] readChunk() {
    byte[] chunk = body.readChunk();
    if (chunk == null) {
      if (!ended) {
        ended = true;
        if (active) {
          reporter.report(count, count);
          reporter.flush().join(); // the last count reaches the listener before the reader sees the end
        }
      }
      return null;
    }
    if (throttle != null) {
      try {
        throttle.acquire(chunk.length);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        body.close();
        throw new TransportException("interrupted while pacing the response body (" + request + ")", request, e);
      }
    }
    count += chunk.length;
    if (active) {
      reporter.report(count, total);
    }
    return chunk;
  }

  @Override
  public CompletableFuture<byte[]> readAll(long maxBytes) {
    CompletableFuture<byte[]> result = new CompletableFuture<>();
    Thread.ofVirtual().name("strand-download").start(() -> {
      try {
        result.complete(readWhole(maxBytes));
      } catch (RuntimeException e) {
        body.close();
        result.completeExceptionally(e);
      }
    });
    return result;
  }

  private byte[] readWhole(long maxBytes) {
    if (total > maxBytes) {
      throw tooLarge(maxBytes);
    }
    byte[] all = new byte[(int) Math.max(0, Math.min(total, Integer.MAX_VALUE - 8))];
    int length = 0;
    byte[] chunk;
    while ((chunk = readChunk()) != null) {
      if (length + (long) chunk.length > maxBytes || length + (long) chunk.length > Integer.MAX_VALUE - 8) {
        throw tooLarge(maxBytes);
      }
      if (length + chunk.length > all.length) {
        all = Arrays.copyOf(all, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(length + (long) chunk.length,
            all.length * 2L)));
      }
      System.arraycopy(chunk, 0, all, length, chunk.length);
      length += chunk.length;
    }
    return length == all.length ? all : Arrays.copyOf(all, length);
  }

  private ProtocolException tooLarge(long limit) {
    return new ProtocolException("response body exceeds the limit of " + limit + " bytes (maxBodySize"
        + (total >= 0 ? "; Content-Length " + total : "") + "; stream() reads any size) (" + request + ")", request);
  }

  @Override
  public Headers trailers() {
    return body.trailers();
  }

  @Override
  public void close() {
    body.close();
  }
}
