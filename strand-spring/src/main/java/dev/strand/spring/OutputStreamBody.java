package dev.strand.spring;

import dev.strand.RequestBody;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.http.StreamingHttpOutputMessage;

/**
 * A Spring body, which writes itself to an OutputStream, as a Strand body, which Strand reads from an
 * InputStream: each {@link #openStream()} starts a virtual thread that runs {@code writeTo} into a
 * {@link ChunkPipe}. The pipe holds at most two chunks, so the writer runs at the network's pace and memory
 * stays bounded whatever the body's size.
 */
final class OutputStreamBody extends RequestBody {
  private static final int CHUNK = 16 * 1024;

  private final StreamingHttpOutputMessage.Body body;
  private final String contentType;
  private final long contentLength;
  private final AtomicBoolean opened = new AtomicBoolean();

  OutputStreamBody(StreamingHttpOutputMessage.Body body, String contentType, long contentLength) {
    this.body = Objects.requireNonNull(body, "body");
    this.contentType = contentType;
    this.contentLength = contentLength;
  }

  @Override
  public String contentType() {
    return contentType;
  }

  @Override
  public long contentLength() {
    return contentLength;
  }

  @Override
  public boolean isRepeatable() {
    return body.repeatable();
  }

  @Override
  public InputStream openStream() throws IOException {
    if (!opened.compareAndSet(false, true) && !body.repeatable()) {
      throw new IOException("this request body can be written only once and was already sent");
    }
    ChunkPipe pipe = new ChunkPipe(2);
    Thread.ofVirtual().name("strand-spring-body").start(() -> {
      try {
        PipeOutputStream out = new PipeOutputStream(pipe);
        body.writeTo(out);
        out.finish();
      } catch (Throwable t) {
        pipe.fail(t);
      }
    });
    return pipe;
  }

  /**
   * Gathers small writes into chunks; {@code flush} hands over what it has. The body ends only when
   * {@code writeTo} has returned ({@link #finish}), never at {@code close}: a writer that closes the stream
   * and then fails must not pass for a complete body.
   */
  private static final class PipeOutputStream extends OutputStream {
    private final ChunkPipe pipe;
    private byte[] buffer = new byte[CHUNK];
    private int count;
    private boolean closed;

    PipeOutputStream(ChunkPipe pipe) {
      this.pipe = pipe;
    }

    @Override
    public void write(int b) throws IOException {
      ensureOpen();
      if (count == buffer.length) {
        handOver();
      }
      buffer[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      Objects.checkFromIndexSize(off, len, b.length);
      ensureOpen();
      while (len > 0) {
        if (count == buffer.length) {
          handOver();
        }
        int n = Math.min(len, buffer.length - count);
        System.arraycopy(b, off, buffer, count, n);
        count += n;
        off += n;
        len -= n;
      }
    }

    @Override
    public void flush() throws IOException {
      ensureOpen();
      if (count > 0) {
        handOver();
      }
    }

    @Override
    public void close() throws IOException {
      if (!closed) {
        flush();
        closed = true;
      }
    }

    void finish() throws IOException {
      close();
      pipe.complete();
    }

    private void handOver() throws IOException {
      ensureOpen();
      byte[] chunk = count == buffer.length ? buffer : Arrays.copyOf(buffer, count);
      if (chunk == buffer) {
        buffer = new byte[CHUNK];
      }
      count = 0;
      pipe.put(chunk);
    }

    private void ensureOpen() throws IOException {
      if (closed) {
        throw new IOException("the request body stream is closed");
      }
    }
  }
}
