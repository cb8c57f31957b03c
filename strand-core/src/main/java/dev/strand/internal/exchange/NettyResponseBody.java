package dev.strand.internal.exchange;

import dev.strand.Headers;
import dev.strand.HttpException;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.spi.ResponseBody;
import dev.strand.TransportException;
import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A response body arriving on an event loop and read by the caller. Bytes are copied out of Netty's
 * buffers as they arrive (the buffers are released at once), into one of two stores:
 *
 * <ul>
 *   <li>a body of known length up to {@value #EAGER_LIMIT} bytes goes straight into an array of that
 *       size: {@link #readAll} then returns that array, with no further copy;
 *   <li>anything else is queued chunk by chunk. Reading pauses when {@value #HIGH_WATER} bytes are
 *       queued and resumes when the consumer has taken half of them, so a body of any size streams in
 *       bounded memory. {@link #readAll} turns the queue into one array (sized by Content-Length when
 *       known) and reads on without pausing.
 * </ul>
 *
 * A ReentrantLock (not a monitor) guards the state, so a virtual thread blocked in {@link #readChunk}
 * does not pin its carrier.
 */
public final class NettyResponseBody implements ResponseBody {
  static final int EAGER_LIMIT = 64 * 1024;
  public static final int HIGH_WATER = 256 * 1024;
  private static final int MAX_ARRAY = Integer.MAX_VALUE - 16;

  /** What the event loop should do after {@link #onContent}. */
  public static final int CONTINUE = 0;
  public static final int PAUSE = 1;
  /** The body failed (too large) or was closed: drop the connection rather than read on. */
  public static final int DISCARD = 2;

  private static final int UNDECIDED = 0;
  private static final int STREAM = 1;
  private static final int ALL = 2;

  private final BodyOwner connection;
  private final Request request;
  private final long contentLength;
  private final ReentrantLock lock = new ReentrantLock();
  private volatile Headers trailers = Headers.EMPTY;
  private Condition changed;

  // Guarded by lock.
  private byte[] fixed;
  private int fixedLength;
  private int fixedTaken;
  private ArrayDeque<byte[]> queue;
  private long queued;
  private long received;
  private int mode;
  private boolean paused;
  private boolean ended;
  /**
   * The end as readers see it: set by {@link #wakeReaders()}, once the connection is back in the pool. A
   * reader that saw {@link #ended} instead could send its next request before the release, and open a
   * second connection where one was about to be free.
   */
  private boolean endVisible;
  private boolean closed;
  private HttpException error;
  private CompletableFuture<byte[]> all;
  private long maxBytes;
  private byte[] aggregate;
  private int aggregateLength;

  public NettyResponseBody(BodyOwner connection, Request request, long contentLength) {
    this.connection = connection;
    this.request = request;
    this.contentLength = contentLength;
    if (contentLength >= 0 && contentLength <= EAGER_LIMIT) {
      fixed = new byte[(int) contentLength];
    }
  }

  @Override
  public long contentLength() {
    return contentLength;
  }

  @Override
  public Headers trailers() {
    return trailers;
  }

  /** HTTP/1.1 trailer fields as {@link Headers}; a malformed field is dropped, since the body is complete. */
  public static Headers trailers(io.netty.handler.codec.http.HttpHeaders fields) {
    Headers.Builder b = Headers.builder();
    for (var it = fields.iteratorCharSequence(); it.hasNext(); ) {
      var e = it.next();
      try {
        b.add(e.getKey().toString(), e.getValue().toString());
      } catch (IllegalArgumentException malformed) {
        // keep the others
      }
    }
    return b.build();
  }

  /** Trailer fields of the response; set on the event loop before {@link #onEnd}. */
  public void trailers(Headers fields) {
    trailers = fields;
  }

  // ---- event loop side ----

  /** Copies {@code content} in (the caller releases it). Returns {@link #CONTINUE}, {@link #PAUSE} or {@link #DISCARD}. */
  public int onContent(ByteBuf content) {
    int n = content.readableBytes();
    lock.lock();
    try {
      received += n;
      if (closed || error != null) {
        return DISCARD;
      }
      if (fixed != null) {
        if (fixedLength + n > fixed.length) {
          error = new ProtocolException("response body longer than its Content-Length (" + request + ")", request);
          return DISCARD;
        }
        content.readBytes(fixed, fixedLength, n);
        fixedLength += n;
      } else if (mode == ALL) {
        if (aggregateLength + (long) n > maxBytes) {
          error = tooLarge(maxBytes);
          return DISCARD;
        }
        ensureAggregate(aggregateLength + n);
        content.readBytes(aggregate, aggregateLength, n);
        aggregateLength += n;
        return CONTINUE;
      } else {
        byte[] chunk = new byte[n];
        content.readBytes(chunk);
        if (queue == null) {
          queue = new ArrayDeque<>();
        }
        queue.addLast(chunk);
        queued += n;
        if (queued >= HIGH_WATER) {
          paused = true;
        }
      }
      if (changed != null) {
        changed.signal();
      }
      return paused ? PAUSE : CONTINUE;
    } finally {
      lock.unlock();
    }
  }

  /** The last byte arrived. False if the body had already failed or been closed: then the connection goes. */
  public boolean onEnd() {
    if (!markEnded()) {
      return false;
    }
    wakeReaders();
    return true;
  }

  /**
   * First half of {@link #onEnd()}: records the end, after which closing this body is a no-op, so the
   * connection can be released before any reader wakes up (a woken caller then finds it free).
   * False if the body had already failed or been closed.
   */
  boolean markEnded() {
    lock.lock();
    try {
      if (error != null || closed) {
        return false;
      }
      ended = true;
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Second half of {@link #onEnd()}: completes a pending {@code readAll} and wakes a blocked reader. */
  void wakeReaders() {
    CompletableFuture<byte[]> done = null;
    byte[] result = null;
    lock.lock();
    try {
      endVisible = ended;
      if (all != null && !all.isDone()) {
        done = all;
        result = fixed != null ? fixed : trimmed();
      }
      if (changed != null) {
        changed.signal();
      }
    } finally {
      lock.unlock();
    }
    if (done != null) {
      done.complete(result);
    }
  }

  /**
   * Reading failed; a waiting or later reader gets {@code e}. A body whose last byte had arrived is whole
   * whatever failed after it: its readers get the end.
   */
  public void onError(HttpException e) {
    CompletableFuture<byte[]> failed = null;
    boolean whole;
    lock.lock();
    try {
      if (closed) {
        return;
      }
      whole = ended;
      if (!whole) {
        if (error == null) {
          error = e;
        }
        e = error;
        // The queue stays: a streaming reader takes what arrived before it hears of the error.
        failed = all;
        if (changed != null) {
          changed.signal();
        }
      }
    } finally {
      lock.unlock();
    }
    if (whole) {
      wakeReaders();
    } else if (failed != null) {
      failed.completeExceptionally(e);
    }
  }

  HttpException error() {
    lock.lock();
    try {
      return error;
    } finally {
      lock.unlock();
    }
  }

  public long received() {
    lock.lock();
    try {
      return received;
    } finally {
      lock.unlock();
    }
  }

  // ---- consumer side ----

  @Override
  public CompletableFuture<byte[]> readAll(long maxBytes) {
    boolean resume;
    boolean discard = false;
    CompletableFuture<byte[]> result;
    lock.lock();
    try {
      if (mode != UNDECIDED) {
        return CompletableFuture.failedFuture(new IllegalStateException("the body is already being read"));
      }
      mode = ALL;
      this.maxBytes = maxBytes;
      if (error != null) {
        return CompletableFuture.failedFuture(error);
      }
      if (closed) {
        return CompletableFuture.failedFuture(new IllegalStateException("the response body is closed"));
      }
      long known = contentLength >= 0 ? contentLength : queued;
      if (known > maxBytes || known > MAX_ARRAY) {
        error = tooLarge(Math.min(maxBytes, MAX_ARRAY));
        discard = !ended;
        result = CompletableFuture.failedFuture(error);
      } else if (fixed != null) {
        result = endVisible ? CompletableFuture.completedFuture(fixed) : (all = new CompletableFuture<>());
      } else {
        ensureAggregate(contentLength >= 0 ? (int) contentLength : (int) Math.min(maxBytes, Math.max(queued, 16 * 1024)));
        if (queue != null) {
          for (byte[] chunk : queue) {
            System.arraycopy(chunk, 0, aggregate, aggregateLength, chunk.length);
            aggregateLength += chunk.length;
          }
          queue = null;
          queued = 0;
        }
        result = endVisible ? CompletableFuture.completedFuture(trimmed()) : (all = new CompletableFuture<>());
      }
      resume = paused && !discard;
      paused = false;
    } finally {
      lock.unlock();
    }
    if (discard) {
      connection.discard(this);
    } else if (resume) {
      connection.resumeReading(this);
    }
    return result;
  }

  @Override
  public byte[] readChunk() {
    boolean resume = false;
    byte[] chunk;
    lock.lock();
    try {
      if (mode == ALL) {
        throw new IllegalStateException("the body is already being read with readAll");
      }
      mode = STREAM;
      while (true) {
        if (fixed != null && fixedTaken < fixedLength) {
          chunk = fixedTaken == 0 && fixedLength == fixed.length ? fixed : Arrays.copyOfRange(fixed, fixedTaken, fixedLength);
          fixedTaken = fixedLength;
          break;
        }
        chunk = queue == null ? null : queue.pollFirst();
        if (chunk != null) {
          queued -= chunk.length;
          if (paused && queued <= HIGH_WATER / 2) {
            paused = false;
            resume = true;
          }
          break;
        }
        if (error != null) {
          throw error;
        }
        if (endVisible || closed) {
          return null;
        }
        if (connection.inEventLoop()) {
          if (ended) {
            return null; // the release follows on this very thread, so no request of this thread can race it
          }
          // Waiting here would stop the very thread that delivers the bytes.
          throw new IllegalStateException("readChunk() would block the connection's event loop (called from a "
              + "callback of the send future?); read on another thread, or use readAll");
        }
        if (changed == null) {
          changed = lock.newCondition();
        }
        try {
          changed.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          lock.unlock();
          try {
            close();
          } finally {
            lock.lock();
          }
          throw new TransportException("interrupted while reading the response body (" + request + ")", request, e);
        }
      }
    } finally {
      lock.unlock();
    }
    if (resume) {
      connection.resumeReading(this);
    }
    return chunk;
  }

  @Override
  public void close() {
    boolean discard;
    CompletableFuture<byte[]> pending;
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      discard = !ended && error == null;
      queue = null;
      pending = all;
      if (changed != null) {
        changed.signal();
      }
    } finally {
      lock.unlock();
    }
    if (discard) {
      connection.discard(this);
      if (pending != null) {
        pending.completeExceptionally(new TransportException("the response body was closed (" + request + ")", request));
      }
    }
  }

  /** Why reading stopped before the end: the body's own error (too large...), or its consumer closed it. */
  public HttpException stopReason() {
    HttpException e = error();
    return e != null ? e : new TransportException("response body closed before its end (" + request + ")", request);
  }

  private ProtocolException tooLarge(long limit) {
    return new ProtocolException("response body exceeds the limit of " + limit + " bytes (maxBodySize"
        + (contentLength >= 0 ? "; Content-Length " + contentLength : "") + "; stream() reads any size) (" + request + ")",
        request);
  }

  private void ensureAggregate(int size) {
    if (aggregate == null) {
      aggregate = new byte[size];
    } else if (size > aggregate.length) {
      long grown = Math.max(size, Math.min((long) aggregate.length * 2, Math.min(maxBytes, MAX_ARRAY)));
      aggregate = Arrays.copyOf(aggregate, (int) grown);
    }
  }

  private byte[] trimmed() {
    if (aggregate == null) {
      return new byte[0];
    }
    return aggregateLength == aggregate.length ? aggregate : Arrays.copyOf(aggregate, aggregateLength);
  }
}
