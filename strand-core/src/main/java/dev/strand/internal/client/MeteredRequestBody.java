package dev.strand.internal.client;

import dev.strand.RequestBody;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;

/**
 * A request body counted for an upload {@link ProgressReporter} and paced by a {@link Throttle} as the transport
 * reads it. It never offers {@link #bufferedBytes()}, so even a body in memory is pumped from its stream by a
 * virtual thread, where waiting for the throttle blocks no event loop. Each {@link #openStream()} (a retry,
 * a 307, an auth challenge sending the body again) counts from zero.
 */
final class MeteredRequestBody extends RequestBody {
  private final RequestBody body;
  private final ProgressReporter reporter;
  private final Throttle throttle;

  MeteredRequestBody(RequestBody body, ProgressReporter reporter, Throttle throttle) {
    this.body = body;
    this.reporter = reporter;
    this.throttle = throttle;
  }

  @Override
  public String contentType() {
    return body.contentType();
  }

  @Override
  public long contentLength() {
    return body.contentLength();
  }

  @Override
  public boolean isRepeatable() {
    return body.isRepeatable();
  }

  @Override
  public InputStream openStream() throws IOException {
    long total = body.contentLength();
    if (reporter != null) {
      reporter.report(0, total);
    }
    return new FilterInputStream(body.openStream()) {
      private long count;
      private boolean ended;

      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, len);
        if (n < 0) {
          if (!ended && reporter != null) {
            reporter.report(count, count); // the end: a body of unknown length now knows it
          }
          ended = true;
          return n;
        }
        if (throttle != null && n > 0) {
          try {
            throttle.acquire(n);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while pacing the upload");
          }
        }
        count += n;
        if (reporter != null && n > 0) {
          reporter.report(count, total);
        }
        return n;
      }
    };
  }
}
