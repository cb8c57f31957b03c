package dev.strand.internal.coding;

/** Encoded input for a {@link Decoder}: the next chunk, or {@code null} at the end. May block. */
interface ChunkSource {
  byte[] next();
}
