package dev.strand.spring;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A bounded hand-off of byte chunks from a producer to the thread that reads this stream (Strand's upload
 * pump). At most {@code capacity} chunks wait: {@link #put} blocks past that, so a fast producer goes at the
 * network's pace. Closing the stream makes the producer's next {@code put} fail, and a failed producer makes
 * the reader's next read fail. A ReentrantLock rather than a monitor, so blocked virtual threads do not pin
 * their carriers.
 */
class ChunkPipe extends InputStream {
  private final int capacity;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();

  // Guarded by lock.
  private final ArrayDeque<byte[]> chunks = new ArrayDeque<>();
  private boolean complete;
  private Throwable failure;
  private boolean closed;

  // The reader's own.
  private byte[] current;
  private int pos;

  ChunkPipe(int capacity) {
    this.capacity = capacity;
  }

  /** Adds a chunk (not copied), waiting while the pipe is full. */
  void put(byte[] chunk) throws IOException {
    lock.lock();
    try {
      while (chunks.size() >= capacity && !closed) {
        changed.await();
      }
      if (closed) {
        throw new IOException("the request body is no longer read (the exchange ended)");
      }
      chunks.add(chunk);
      changed.signalAll();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while writing the request body");
    } finally {
      lock.unlock();
    }
  }

  /** The producer is done: the reader sees the end after the chunks already put. */
  void complete() {
    lock.lock();
    try {
      complete = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The producer failed: the reader's next read throws an IOException with {@code cause}. */
  void fail(Throwable cause) {
    lock.lock();
    try {
      if (!complete) {
        failure = cause;
        changed.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Called after the reader took a chunk, outside the lock: a demand-driven producer asks for the next here. */
  protected void taken() {}

  /** Called once when the reader closes the stream, outside the lock. */
  protected void closed() {}

  private boolean fill() throws IOException {
    while (current == null || pos == current.length) {
      byte[] next;
      lock.lock();
      try {
        while (chunks.isEmpty() && !complete && failure == null && !closed) {
          changed.await();
        }
        if (closed) {
          throw new IOException("stream closed");
        }
        next = chunks.poll();
        if (next == null) {
          if (failure != null) {
            throw failure instanceof IOException io ? new IOException(io.getMessage(), io)
                : new IOException("writing the request body failed: " + failure, failure);
          }
          return false;
        }
        changed.signalAll();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while reading the request body");
      } finally {
        lock.unlock();
      }
      taken();
      current = next;
      pos = 0;
    }
    return true;
  }

  @Override
  public int read() throws IOException {
    return fill() ? current[pos++] & 0xff : -1;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    if (!fill()) {
      return -1;
    }
    int n = Math.min(len, current.length - pos);
    System.arraycopy(current, pos, b, off, n);
    pos += n;
    return n;
  }

  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      chunks.clear();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    closed();
  }
}
