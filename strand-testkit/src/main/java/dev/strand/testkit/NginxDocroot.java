package dev.strand.testkit;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the files that the nginx integration tests fetch, with the same content the testkit
 * server sends, so a test can compare bodies from both servers against {@link Payloads}.
 *
 * <p>Run as {@code java -cp strand-testkit.jar dev.strand.testkit.NginxDocroot DIR} (bin/test does).
 */
public final class NginxDocroot {
  /** Size of {@code large.bin}: big enough to cross many TCP windows and buffers. */
  public static final int LARGE_SIZE = 64 * 1024 * 1024;

  private NginxDocroot() {}

  /** Text with characters outside ASCII, written in ISO-8859-1 (not valid UTF-8). */
  public static final String LATIN1_TEXT = "Caf\u00e9 cr\u00e8me, 12 \u00b0C, \u00bfqu\u00e9 tal?\n";

  public static void write(Path dir) throws IOException {
    Files.createDirectories(dir);
    Files.write(dir.resolve("small.json"), Payloads.SMALL);
    Files.write(dir.resolve("big.bin"), Payloads.BIG);
    try (OutputStream out = Files.newOutputStream(dir.resolve("large.bin"))) {
      out.write(Payloads.bytes(LARGE_SIZE));
    }
    Files.writeString(dir.resolve("text.txt"), text(10_000), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("chunked.shtml"), text(20_000), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("events.sse"), SseStreams.RECORDED, StandardCharsets.UTF_8);
    // The same ISO-8859-1 text twice: nginx names its charset for the second only (see nginx.conf.template).
    Files.writeString(dir.resolve("latin1.txt"), LATIN1_TEXT, StandardCharsets.ISO_8859_1);
    Files.writeString(dir.resolve("latin1-declared.txt"), LATIN1_TEXT, StandardCharsets.ISO_8859_1);
  }

  /** {@code length} characters of readable ASCII text, lines of 64. */
  public static String text(int length) {
    StringBuilder sb = new StringBuilder(length);
    String words = "strand streams bytes over keep-alive connections without surprises ";
    while (sb.length() < length) {
      int lineEnd = Math.min(length, sb.length() + 64);
      while (sb.length() < lineEnd - 1) {
        sb.append(words.charAt(sb.length() % words.length()));
      }
      if (sb.length() < length) {
        sb.append('\n');
      }
    }
    return sb.toString();
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: NginxDocroot DIR");
      System.exit(2);
    }
    write(Path.of(args[0]));
  }
}
