package dev.strand.internal.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.strand.Headers;
import dev.strand.Version;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Entries on disk: whole or not at all. */
class DiskStoreTest {
  @TempDir
  Path dir;

  private static CacheEntry entry(String url, int bodySize) {
    return new CacheEntry(url, Headers.of("accept-language", "fr"), 200, "OK", Version.HTTP_2,
        Headers.of("ETag", "\"x\"", "Cache-Control", "max-age=5"), new byte[bodySize], 1, 2);
  }

  @Test
  void anEntryRoundTrips() throws IOException {
    CacheEntry e = entry("http://h/a", 100);
    CacheEntry back = DiskStore.decode(DiskStore.encode(e));
    assertEquals(e.url(), back.url());
    assertEquals(e.headers(), back.headers());
    assertEquals(e.varyRequestHeaders(), back.varyRequestHeaders());
    assertEquals(Version.HTTP_2, back.version());
    assertArrayEquals(e.body(), back.body());
    assertEquals(2, back.responseMillis());
  }

  @Test
  void everyTruncationAndEveryFlippedByteIsRejected() throws IOException {
    byte[] whole = DiskStore.encode(entry("http://h/a", 40));
    for (int n = 0; n < whole.length; n++) {
      assertNull(DiskStore.decode(java.util.Arrays.copyOf(whole, n)), "truncated to " + n);
      byte[] flipped = whole.clone();
      flipped[n] ^= 1;
      assertNull(DiskStore.decode(flipped), "byte " + n + " flipped");
    }
  }

  @Test
  void leftoverTempFilesAreRemovedAndEntriesReindexed() throws IOException {
    DiskStore store = new DiskStore(dir, 1 << 20);
    store.put(entry("http://h/a", 10));
    Files.writeString(dir.resolve("junk.entry.7.tmp"), "half a write");
    DiskStore reopened = new DiskStore(dir, 1 << 20);
    assertEquals(1, reopened.count());
    assertFalse(Files.exists(dir.resolve("junk.entry.7.tmp")));
    assertEquals("http://h/a", reopened.get("http://h/a").url());
  }
}
