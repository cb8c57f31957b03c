package dev.strand.internal.coding;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import java.io.IOException;

/**
 * zstd through zstd-jni, an optional dependency: only {@link ContentEncodings} refers to this
 * class, and only after it found zstd-jni and its native library loadable.
 */
final class ZstdDecoder implements Decoder {
  private final ZstdInputStreamNoFinalizer in;

  ZstdDecoder(ChunkSource source) throws IOException {
    this.in = new ZstdInputStreamNoFinalizer(new ChunkStream(source));
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
}
