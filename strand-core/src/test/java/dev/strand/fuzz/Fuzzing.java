package dev.strand.fuzz;

import dev.strand.HttpException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * What the fuzz targets share. Their invariant: a parser of untrusted input answers with a value or a Strand
 * exception ({@link HttpException} and its subtypes), never another exception, never a hang. Jazzer reports
 * any other throwable as a finding, so the targets let those escape and only accept Strand's own.
 */
final class Fuzzing {
  private Fuzzing() {}

  /** Bytes as a file or a body read as UTF-8 (malformed sequences become U+FFFD, as the readers do). */
  static String utf8(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** Bytes as a header value arrives from Netty: one char per byte. */
  static String latin1(byte[] bytes) {
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }

  /** {@code bytes} cut into pieces of a size taken from its first byte (1 to 64), so parsers see split reads. */
  static byte[][] pieces(byte[] bytes) {
    if (bytes.length == 0) {
      return new byte[0][];
    }
    int size = (bytes[0] & 0x3f) + 1;
    byte[] rest = Arrays.copyOfRange(bytes, 1, bytes.length);
    byte[][] out = new byte[(rest.length + size - 1) / size][];
    for (int i = 0; i < out.length; i++) {
      out[i] = Arrays.copyOfRange(rest, i * size, Math.min(rest.length, (i + 1) * size));
    }
    return out;
  }

  /**
   * The value of a future that must have settled by now: {@code null} if it failed with a Strand exception.
   * Not done means the parser waits for input that will never come (a hang); any other failure is a finding.
   */
  static <T> T settled(CompletableFuture<T> f, String what) {
    if (!f.isDone()) {
      throw new AssertionError(what + " still pending after the input ended");
    }
    try {
      return f.get();
    } catch (ExecutionException e) {
      strandOnly(e.getCause());
      return null;
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  /** Rethrows {@code t} unless it is a Strand exception (unwrapping a CompletionException first). */
  static void strandOnly(Throwable t) {
    Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    if (cause instanceof HttpException) {
      return;
    }
    throw new AssertionError("not a Strand exception: " + cause, cause);
  }
}
