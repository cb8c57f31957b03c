package dev.strand.internal.coding;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.decoder.BrotliInputStream;
import java.io.IOException;

/**
 * Brotli (RFC 7932) through brotli4j, an optional dependency: only {@link ContentEncodings} refers
 * to this class, and only after it found brotli4j on the class path. The native library is loaded by
 * the first instance.
 */
final class BrotliDecoder implements Decoder {
  private final BrotliInputStream in;

  BrotliDecoder(ChunkSource source) throws IOException {
    if (!loaded()) {
      throw new IOException("brotli4j's native library cannot be loaded: " + Brotli4jLoader.getUnavailabilityCause());
    }
    this.in = new BrotliInputStream(new ChunkStream(source));
  }

  private static boolean loaded() {
    try {
      return Brotli4jLoader.isAvailable();
    } catch (LinkageError e) { // its native provider jar is missing
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
      // the native decoder is released before close() could fail
    }
  }
}
