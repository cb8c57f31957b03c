package dev.strand.spring;

import java.io.IOException;
import java.io.InputStream;

/** Checks a testkit {@code /bytes/N} body as it streams: byte {@code i} is {@code (byte) (i * 31 + 7)}. */
final class Downloads {
  private Downloads() {}

  /** Reads {@code in} to its end, checking every byte, and returns how many there were. */
  static long readPattern(InputStream in) throws IOException {
    byte[] buffer = new byte[8192];
    long total = 0;
    int n;
    while ((n = in.read(buffer)) >= 0) {
      for (int i = 0; i < n; i++) {
        if (buffer[i] != (byte) ((total + i) * 31 + 7)) {
          throw new AssertionError("byte " + (total + i) + " is wrong");
        }
      }
      total += n;
    }
    return total;
  }

  static boolean matchesPattern(byte[] chunk, long offset) {
    for (int i = 0; i < chunk.length; i++) {
      if (chunk[i] != (byte) ((offset + i) * 31 + 7)) {
        return false;
      }
    }
    return true;
  }
}
