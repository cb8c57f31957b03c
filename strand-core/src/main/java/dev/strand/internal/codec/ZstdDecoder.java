package dev.strand.internal.codec;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import java.io.IOException;
import java.io.InputStream;

/**
 * zstd through zstd-jni, an optional dependency: only {@link ContentEncodings} refers to this
 * class, and only after it found zstd-jni and its native library loadable.
 */
final class ZstdDecoder implements Decoder {
  private final ZstdInputStreamNoFinalizer in;

  ZstdDecoder(ChunkSource source) throws IOException {
    this.in = new ZstdInputStreamNoFinalizer(new SourceStream(source));
  }

  static boolean available() {
    try {
      com.github.luben.zstd.util.Native.load();
      return com.github.luben.zstd.util.Native.isLoaded();
    } catch (Throwable e) { // missing class, unloadable native library
      return false;
    }
  }

  @Override
  public int read(byte[] out, int off, int len) throws IOException {
    return in.read(out, off, len);
  }

  @Override
  public void close() {
    try {
      in.close();
    } catch (IOException ignored) {
      // nothing to release beyond native memory, which close() frees before it could fail
    }
  }

  /** The chunks as an InputStream that never waits for more while it holds some. */
  private static final class SourceStream extends InputStream {
    private final ChunkSource source;
    private byte[] chunk;
    private int pos;

    SourceStream(ChunkSource source) {
      this.source = source;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      while (chunk == null || pos == chunk.length) {
        chunk = source.next();
        pos = 0;
        if (chunk == null) {
          return -1;
        }
      }
      int n = Math.min(len, chunk.length - pos);
      System.arraycopy(chunk, pos, b, off, n);
      pos += n;
      return n;
    }

    @Override
    public int available() {
      return chunk == null ? 0 : chunk.length - pos;
    }
  }
}
