package dev.strand.internal.coding;

import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.spi.ResponseBody;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A response body decoded from its Content-Encoding. {@link #readAll} decodes the aggregated bytes
 * in one pass; {@link #readChunk} decodes each raw chunk as it arrives, so a compressed stream
 * stays streaming. The size limit of {@code readAll} applies to the decoded bytes too (a small
 * compressed body can expand enormously). Corrupt or truncated data fails with {@link ProtocolException}.
 */
final class DecodingResponseBody implements ResponseBody {
  private static final int CHUNK = 16 * 1024;
  private static final int MAX_ARRAY = Integer.MAX_VALUE - 16;

  private final ResponseBody raw;
  private final String[] codings;
  private final Request request;
  // Held while a read blocks on the raw body: a j.u.c. lock, as a monitor would pin a virtual thread's
  // carrier on JDK 21-23.
  private final ReentrantLock reading = new ReentrantLock();
  private Decoder decoder;
  private boolean ended;

  DecodingResponseBody(ResponseBody raw, String[] codings, Request request) {
    this.raw = raw;
    this.codings = codings;
    this.request = request;
  }

  /** Unknown: the declared length is the encoded one. */
  @Override
  public long contentLength() {
    return -1;
  }

  @Override
  public dev.strand.Headers trailers() {
    return raw.trailers();
  }

  @Override
  public CompletableFuture<byte[]> readAll(long maxBytes) {
    return raw.readAll(maxBytes).thenApply(bytes -> decodeAll(bytes, maxBytes));
  }

  private byte[] decodeAll(byte[] encoded, long maxBytes) {
    if (encoded.length == 0) {
      return encoded;
    }
    Decoder d;
    try {
      d = chain(new ChunkSource() {
        private boolean given;

        @Override
        public byte[] next() {
          if (given) {
            return null;
          }
          given = true;
          return encoded;
        }
      });
    } catch (UncheckedIOException e) { // a decoder that cannot start (brotli's native library missing)
      throw corrupt(e);
    }
    try {
      long cap = maxBytes >= MAX_ARRAY ? MAX_ARRAY : maxBytes + 1; // one past the limit detects excess
      long guess = Math.max(256L, Math.min((long) encoded.length * 4, 1L << 20));
      byte[] out = new byte[(int) Math.min(guess, cap)];
      int n = 0;
      while (true) {
        if (n == out.length) {
          if (n > maxBytes || n >= MAX_ARRAY) {
            throw tooLarge(maxBytes);
          }
          out = Arrays.copyOf(out, (int) Math.min((long) n * 2, cap));
        }
        int r = d.read(out, n, out.length - n);
        if (r < 0) {
          break;
        }
        n += r;
        if (n > maxBytes) {
          throw tooLarge(maxBytes);
        }
      }
      return n == out.length ? out : Arrays.copyOf(out, n);
    } catch (IOException | UncheckedIOException e) {
      throw corrupt(e);
    } finally {
      d.close();
    }
  }

  @Override
  public byte[] readChunk() {
    reading.lock();
    try {
      return decodeChunk();
    } finally {
      reading.unlock();
    }
  }

  private byte[] decodeChunk() {
    if (ended) {
      return null;
    }
    try {
      if (decoder == null) {
        byte[] first = raw.readChunk();
        while (first != null && first.length == 0) {
          first = raw.readChunk();
        }
        if (first == null) { // no body at all: nothing to decode
          ended = true;
          return null;
        }
        decoder = chain(prepend(first));
      }
      byte[] buf = new byte[CHUNK];
      int n;
      do {
        n = decoder.read(buf, 0, buf.length);
      } while (n == 0);
      if (n < 0) {
        ended = true;
        decoder.close();
        return null;
      }
      return n == buf.length ? buf : Arrays.copyOf(buf, n);
    } catch (IOException | UncheckedIOException e) {
      ended = true;
      raw.close();
      if (decoder != null) {
        decoder.close();
      }
      throw corrupt(e);
    }
  }

  @Override
  public void close() {
    raw.close(); // first: unblocks a reader holding the lock
    reading.lock();
    try {
      ended = true;
      if (decoder != null) {
        decoder.close();
      }
    } finally {
      reading.unlock();
    }
  }

  /** Decoders for each coding, the last applied decoded first. */
  private Decoder chain(ChunkSource source) {
    Decoder d = ContentEncodings.decoder(codings[codings.length - 1], source);
    if (codings.length == 1) {
      return d;
    }
    Decoder[] layers = new Decoder[codings.length];
    layers[0] = d;
    for (int i = codings.length - 2; i >= 0; i--) {
      Decoder inner = d;
      d = layers[codings.length - 1 - i] = ContentEncodings.decoder(codings[i], () -> {
        byte[] buf = new byte[CHUNK];
        try {
          int n;
          do {
            n = inner.read(buf, 0, buf.length);
          } while (n == 0);
          return n < 0 ? null : Arrays.copyOf(buf, n);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
    Decoder outer = d;
    return new Decoder() {
      @Override
      public int read(byte[] out, int off, int len) throws IOException {
        return outer.read(out, off, len);
      }

      @Override
      public void close() {
        for (Decoder layer : layers) {
          layer.close();
        }
      }
    };
  }

  private ChunkSource prepend(byte[] first) {
    return new ChunkSource() {
      private boolean given;

      @Override
      public byte[] next() {
        if (!given) {
          given = true;
          return first;
        }
        return raw.readChunk();
      }
    };
  }

  private ProtocolException corrupt(Exception e) {
    Throwable cause = e instanceof UncheckedIOException u ? u.getCause() : e;
    return new ProtocolException("cannot decode the " + String.join(", ", codings) + " response body from "
        + request + ": " + cause.getMessage(), request, cause);
  }

  private ProtocolException tooLarge(long maxBytes) {
    return new ProtocolException("decoded response body exceeds the limit of " + maxBytes + " bytes (maxBodySize; "
        + "Content-Encoding " + String.join(", ", codings) + "; stream() reads any size) from " + request, request);
  }
}
