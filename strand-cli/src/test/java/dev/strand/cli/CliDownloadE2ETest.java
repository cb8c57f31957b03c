package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.testkit.TestServerExtension;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A 50 MiB body streamed to a file, checked byte for byte by SHA-256; and a 50 MiB multipart upload. */
class CliDownloadE2ETest {
  static final int SIZE = 50 << 20;
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();
  @TempDir Path dir;

  @Test
  void fiftyMebibytesToAFile() throws Exception {
    Path file = dir.resolve("50m.bin");
    Cli.Result r = Cli.run("-o", file.toString(), server.url("/bytes/" + SIZE));
    assertEquals(0, r.exit(), r::toString);
    assertEquals("", r.stdout());
    assertEquals(SIZE, Files.size(file));
    assertEquals(expectedSha256(SIZE), sha256(file));
  }

  @Test
  void fiftyMebibytesUploadedAsMultipart() throws Exception {
    Path file = dir.resolve("up.bin");
    byte[] block = new byte[1 << 20];
    new java.util.Random(7).nextBytes(block);
    try (var out = Files.newOutputStream(file)) {
      for (int i = 0; i < 50; i++) {
        out.write(block);
      }
    }
    Cli.Result r = Cli.run("-F", "f=@" + file, server.url("/sink"));
    assertEquals(0, r.exit(), r::toString);
    String json = r.stdout();
    long bytes = Long.parseLong(json.replaceAll("(?s).*\"bytes\"\\s*:\\s*(\\d+).*", "$1"));
    assertEquals(SIZE + 200, bytes, 150, "file plus roughly 200 bytes of part headers and delimiters: " + json);
  }

  /** The testkit's sequence: byte i is (byte) (i * 31 + 7). */
  static String expectedSha256(long n) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    byte[] period = new byte[256];
    for (int i = 0; i < 256; i++) {
      period[i] = (byte) (i * 31 + 7);
    }
    long left = n;
    while (left > 0) {
      int k = (int) Math.min(256, left);
      md.update(period, 0, k);
      left -= k;
    }
    return HexFormat.of().formatHex(md.digest());
  }

  static String sha256(Path file) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    try (InputStream in = Files.newInputStream(file)) {
      byte[] buf = new byte[1 << 16];
      for (int n; (n = in.read(buf)) > 0; ) {
        md.update(buf, 0, n);
      }
    }
    return HexFormat.of().formatHex(md.digest());
  }
}
