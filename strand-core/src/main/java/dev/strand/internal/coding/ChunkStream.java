package dev.strand.internal.coding;

import java.io.IOException;
import java.io.InputStream;

/** Chunks as an InputStream that never waits for more while it holds some, for stream-based native decoders. */
final class ChunkStream extends InputStream {
  private final ChunkSource source;
  private byte[] chunk;
  private int pos;

  ChunkStream(ChunkSource source) {
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
