package dev.strand.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.strand.internal.cache.CacheFuzzEntryPoints;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * The HTTP cache's files on disk (a damaged or foreign file must read as "no entry" or an IOException, which
 * the cache treats as a miss), and an entry it reads, written again, reads back as the same entry.
 */
class CacheFileFuzzTest {
  /** A file whose trailing SHA-256 matches, so the fuzzer reaches the entry's fields past the checksum. */
  @FuzzTest
  void cacheFileContent(byte[] content) throws NoSuchAlgorithmException {
    byte[] sum = MessageDigest.getInstance("SHA-256").digest(content);
    byte[] file = Arrays.copyOf(content, content.length + sum.length);
    System.arraycopy(sum, 0, file, content.length, sum.length);
    cacheFile(file);
  }

  @FuzzTest
  void cacheFile(byte[] file) {
    byte[] again;
    try {
      again = CacheFuzzEntryPoints.decodeAndEncode(file);
    } catch (IOException damaged) {
      return;
    }
    if (again == null) {
      return;
    }
    // The file's own bytes need not come back (modified UTF-8 has two forms of NUL), but a written entry must.
    byte[] third;
    try {
      third = CacheFuzzEntryPoints.decodeAndEncode(again);
    } catch (IOException e) {
      throw new AssertionError("an entry written by encode does not decode", e);
    }
    if (!Arrays.equals(again, third)) {
      throw new AssertionError("an entry written by encode does not read back as itself");
    }
  }
}
