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

  /** {@code content} as a file whose checksum holds, as a file written by another format or by hand would be. */
  private static byte[] sealed(byte[] content) throws Exception {
    byte[] sum = java.security.MessageDigest.getInstance("SHA-256").digest(content);
    byte[] file = java.util.Arrays.copyOf(content, content.length + 32);
    System.arraycopy(sum, 0, file, content.length, 32);
    return file;
  }

  /** The entry's bytes before its checksum, with {@code from} replaced by {@code to} once. */
  private static byte[] edited(CacheEntry e, byte[] from, byte[] to) {
    byte[] whole = DiskStore.encode(e);
    byte[] content = java.util.Arrays.copyOf(whole, whole.length - 32);
    String text = new String(content, java.nio.charset.StandardCharsets.ISO_8859_1);
    String replaced = text.replace(new String(from, java.nio.charset.StandardCharsets.ISO_8859_1),
        new String(to, java.nio.charset.StandardCharsets.ISO_8859_1));
    return replaced.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  // Found by CacheFileFuzzTest: Version.valueOf threw IllegalArgumentException for a name it does not know.
  @Test
  void anUnknownVersionNameIsNoEntry() throws Exception {
    byte[] content = edited(entry("http://h/a", 3), "\0\u0006HTTP_2".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1),
        "\0\u0006HTTP_9".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    assertNull(DiskStore.decode(sealed(content)));
  }

  // Version once held the client's policies too; an entry a response built with one of them reads as the protocol.
  @Test
  void aPolicyNameFromBeforeVersionPolicyReadsAsItsProtocol() throws Exception {
    byte[] content = edited(entry("http://h/a", 3), "\0\u0006HTTP_2".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1),
        "\0\u0016HTTP_2_PRIOR_KNOWLEDGE".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    assertEquals(Version.HTTP_2, DiskStore.decode(sealed(content)).version());
    content = edited(entry("http://h/a", 3), "\0\u0006HTTP_2".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1),
        "\0\u000eHTTP_3_ALT_SVC".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    assertEquals(Version.HTTP_3, DiskStore.decode(sealed(content)).version());
  }

  @Test
  void aBodyLengthPastTheFileIsNoEntryAndAllocatesNothing() throws Exception {
    byte[] whole = DiskStore.encode(entry("http://h/a", 0));
    byte[] content = java.util.Arrays.copyOf(whole, whole.length - 32);
    // the last int before the (empty) body is its length: 2 GiB - 1, which the file does not hold
    content[content.length - 4] = 0x7f;
    content[content.length - 3] = (byte) 0xff;
    content[content.length - 2] = (byte) 0xff;
    content[content.length - 1] = (byte) 0xff;
    assertNull(DiskStore.decode(sealed(content)));
    content[content.length - 4] = (byte) 0xff; // negative
    assertNull(DiskStore.decode(sealed(content)));
  }

  @Test
  void aHeaderFieldThatHeadersRefuseIsNoEntry() throws Exception {
    byte[] content = edited(entry("http://h/a", 1), "ETag".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1),
        "E\nag".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    assertNull(DiskStore.decode(sealed(content)));
  }
}
