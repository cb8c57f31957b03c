package dev.strand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MultipartTest {
  @TempDir Path dir;

  @Test
  void encodesFieldsAndFilesExactly() throws IOException {
    Path file = Files.writeString(dir.resolve("notes.txt"), "line 1\nline 2\n");
    RequestBody body = Multipart.builder()
        .boundary("XyZ")
        .field("title", "holiday é")
        .file("doc", file, "text/plain")
        .build();

    String expected = "--XyZ\r\n"
        + "Content-Disposition: form-data; name=\"title\"\r\n\r\n"
        + "holiday é"
        + "\r\n--XyZ\r\n"
        + "Content-Disposition: form-data; name=\"doc\"; filename=\"notes.txt\"\r\n"
        + "Content-Type: text/plain\r\n\r\n"
        + "line 1\nline 2\n"
        + "\r\n--XyZ--\r\n";
    byte[] actual = readAll(body);
    assertEquals(expected, new String(actual, StandardCharsets.UTF_8));
    assertEquals(actual.length, body.contentLength(), "Content-Length must equal the bytes sent");
    assertEquals("multipart/form-data; boundary=XyZ", body.contentType());
  }

  @Test
  void fileWithoutTypeIsOctetStreamAndNamesAreEscaped() throws IOException {
    Path file = Files.write(dir.resolve("a.bin"), new byte[] {0, 1, 2});
    RequestBody body = Multipart.builder()
        .boundary("b")
        .file("up\"load", file, "we\"ird\r\nname.bin", null)
        .build();
    String text = new String(readAll(body), StandardCharsets.ISO_8859_1);
    assertTrue(text.contains("name=\"up%22load\"; filename=\"we%22ird%0D%0Aname.bin\"\r\n"), text);
    assertTrue(text.contains("Content-Type: application/octet-stream\r\n"), text);
  }

  @Test
  void emptyMultipartIsJustTheCloseDelimiter() throws IOException {
    RequestBody body = Multipart.builder().boundary("e").build();
    assertEquals("--e--\r\n", new String(readAll(body), StandardCharsets.US_ASCII));
    assertEquals(7, body.contentLength());
  }

  @Test
  void largeFileStreamsInSmallReadsAndMatchesItsHash() throws Exception {
    Path file = dir.resolve("big.bin");
    byte[] block = new byte[1 << 20];
    for (int i = 0; i < block.length; i++) {
      block[i] = (byte) (i * 31);
    }
    try (var out = Files.newOutputStream(file)) {
      for (int i = 0; i < 24; i++) {
        out.write(block);
      }
    }
    RequestBody body = Multipart.builder().boundary("big").file("f", file).build();
    MessageDigest sent = MessageDigest.getInstance("SHA-256");
    MessageDigest expected = MessageDigest.getInstance("SHA-256");
    long total = 0;
    try (InputStream in = body.openStream()) {
      byte[] buf = new byte[8192];
      for (int n; (n = in.read(buf)) >= 0; ) {
        sent.update(buf, 0, n);
        total += n;
      }
    }
    byte[] head = ("--big\r\nContent-Disposition: form-data; name=\"f\"; filename=\"big.bin\"\r\n"
        + "Content-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    expected.update(head);
    for (int i = 0; i < 24; i++) {
      expected.update(block);
    }
    expected.update("\r\n--big--\r\n".getBytes(StandardCharsets.US_ASCII));
    assertEquals(body.contentLength(), total);
    assertEquals(HexFormat.of().formatHex(expected.digest()), HexFormat.of().formatHex(sent.digest()));
  }

  @Test
  void filesAreOpenedWhenSentNotWhenBuilt() throws IOException {
    Path file = Files.writeString(dir.resolve("late.txt"), "old!");
    RequestBody body = Multipart.builder().boundary("x").file("f", file).build();
    Files.writeString(file, "new!");
    assertTrue(new String(readAll(body), StandardCharsets.UTF_8).contains("\r\n\r\nnew!\r\n--x--"));
  }

  @Test
  void isRepeatableFromFilesAndOneShotWithAStream() throws IOException {
    Path file = Files.writeString(dir.resolve("r.txt"), "again");
    RequestBody repeatable = Multipart.builder().boundary("r").file("f", file).build();
    assertTrue(repeatable.isRepeatable());
    assertArrayEquals(readAll(repeatable), readAll(repeatable));

    RequestBody oneShot = Multipart.builder()
        .boundary("s")
        .part("s", null, "text/plain", RequestBody.ofInputStream(new ByteArrayInputStream(new byte[3]), null))
        .build();
    assertFalse(oneShot.isRepeatable());
    assertEquals(-1, oneShot.contentLength(), "unknown part length makes the whole length unknown");
  }

  @Test
  void missingFileFailsAtBuildTimeAndBadBoundaryIsRefused() {
    assertThrows(UncheckedIOException.class, () -> Multipart.builder().file("f", dir.resolve("absent")));
    assertThrows(IllegalArgumentException.class, () -> Multipart.builder().boundary("bad\"quote"));
    assertThrows(IllegalArgumentException.class, () -> Multipart.builder().boundary("x".repeat(71)));
  }

  @Test
  void randomBoundariesDiffer() {
    String a = Multipart.builder().build().contentType();
    String b = Multipart.builder().build().contentType();
    assertTrue(a.startsWith("multipart/form-data; boundary=strand-"), a);
    assertFalse(a.equals(b));
  }

  private static byte[] readAll(RequestBody body) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (InputStream in = body.openStream()) {
      in.transferTo(out);
    }
    return out.toByteArray();
  }

  // Found by ContentTypeFuzzTest: the boundary " 0p 14'Y9" (RFC 2046 allows spaces) went out unquoted in
  // Content-Type, where a receiver reads it as "0p"; such a boundary is quoted now.
  @Test
  void aBoundaryWithSpacesOrSeparatorsIsQuotedInContentType() {
    assertEquals("multipart/form-data; boundary=\" 0p 14'Y9\"",
        Multipart.builder().boundary(" 0p 14'Y9").field("a", "b").build().contentType());
    assertEquals("multipart/form-data; boundary=plain-_.Token",
        Multipart.builder().boundary("plain-_.Token").field("a", "b").build().contentType());
  }
}
