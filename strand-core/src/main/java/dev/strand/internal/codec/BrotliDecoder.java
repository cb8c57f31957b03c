package dev.strand.internal.codec;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.decoder.BrotliInputStream;
import java.io.IOException;

/**
 * Brotli (RFC 7932) through brotli4j, an optional dependency: only {@link ContentEncodings} refers
 * to this class, and only after it found brotli4j and its native library loadable.
 */
final class BrotliDecoder implements Decoder {
  private final BrotliInputStream in;

  BrotliDecoder(ChunkSource source) throws IOException {
    this.in = new BrotliInputStream(new ChunkStream(source));
  }

  static boolean available() {
    try {
      return Brotli4jLoader.isAvailable();
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
      // the native decoder is released before close() could fail
    }
  }
}
