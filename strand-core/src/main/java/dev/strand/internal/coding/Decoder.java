package dev.strand.internal.coding;

import java.io.IOException;

/** Decoded bytes pulled from a {@link ChunkSource} of encoded ones. Not thread-safe. */
interface Decoder extends AutoCloseable {
  /**
   * Decodes into {@code out}, returning as soon as some bytes are ready (pulling input only while
   * none are), or -1 at the end.
   *
   * @throws IOException if the input is corrupt or ends too early
   */
  int read(byte[] out, int off, int len) throws IOException;

  /** Releases native memory. Idempotent. */
  @Override
  void close();
}
