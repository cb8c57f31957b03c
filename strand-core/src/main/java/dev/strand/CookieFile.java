package dev.strand;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Cookies in the Netscape {@code cookies.txt} format that curl, wget and browsers' export tools read and
 * write: one cookie a line, seven tab-separated fields (domain, include subdomains, path, secure, expiry
 * in epoch seconds, name, value). A domain starting with {@code #HttpOnly_} is an HttpOnly cookie; an
 * expiry of {@code 0} a session cookie; other lines starting with {@code #} are comments.
 *
 * {@snippet :
 * CookieJar jar = CookieJar.create();
 * CookieFile.read(Path.of("cookies.txt")).forEach(jar::add);
 * // ... requests through a client built with cookieJar(jar) ...
 * CookieFile.write(Path.of("cookies.txt"), jar.cookies());
 * }
 */
public final class CookieFile {
  private static final String HTTP_ONLY = "#HttpOnly_";

  private CookieFile() {}

  /**
   * The cookies of a file, in file order; lines that are not cookies are skipped, as curl skips them.
   *
   * @throws UncheckedIOException if the file cannot be read
   */
  public static List<Cookie> read(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read cookie file " + file + ": " + e.getMessage(), e);
    }
    List<Cookie> out = new ArrayList<>();
    for (String line : lines) {
      Cookie c = parse(line);
      if (c != null) {
        out.add(c);
      }
    }
    return out;
  }

  /**
   * Writes {@code cookies} to {@code file}, replacing it; session cookies with expiry {@code 0}.
   *
   * @throws UncheckedIOException if the file cannot be written
   */
  public static void write(Path file, Collection<Cookie> cookies) {
    try {
      Files.writeString(file, text(cookies), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write cookie file " + file + ": " + e.getMessage(), e);
    }
  }

  /** The file's text for {@code cookies}. */
  static String text(Collection<Cookie> cookies) {
    StringBuilder sb = new StringBuilder("# Netscape HTTP Cookie File\n# Written by Strand; curl reads this format.\n\n");
    for (Cookie c : cookies) {
      if (c.httpOnly()) {
        sb.append(HTTP_ONLY);
      }
      sb.append(c.hostOnly() ? "" : ".").append(c.domain()).append('\t')
          .append(c.hostOnly() ? "FALSE" : "TRUE").append('\t')
          .append(c.path()).append('\t')
          .append(c.secure() ? "TRUE" : "FALSE").append('\t')
          .append(c.expires() == null ? 0 : Math.max(1, c.expires().getEpochSecond())).append('\t')
          .append(c.name()).append('\t')
          .append(c.value()).append('\n');
    }
    return sb.toString();
  }

  /** One line as a cookie, or null for a comment, a blank or a malformed line. */
  static Cookie parse(String line) {
    boolean httpOnly = line.startsWith(HTTP_ONLY);
    String text = httpOnly ? line.substring(HTTP_ONLY.length()) : line;
    if (text.isBlank() || text.startsWith("#")) {
      return null;
    }
    String[] f = text.split("\t", -1);
    if (f.length != 7 && f.length != 6) { // curl writes six fields for an empty value
      return null;
    }
    String domain = f[0].strip();
    boolean hostOnly = !f[1].equalsIgnoreCase("TRUE");
    if (domain.startsWith(".")) {
      domain = domain.substring(1).strip();
    }
    if (domain.startsWith(".") || domain.startsWith("#")) {
      // No host name starts so: the line is malformed, and written back it would read differently (a dot less,
      // or as a comment).
      return null;
    }
    long expiry;
    try {
      expiry = Long.parseLong(f[4].strip());
    } catch (NumberFormatException e) {
      return null;
    }
    if (domain.isEmpty() || f[5].isEmpty()) {
      return null;
    }
    // Within what an Instant and its milliseconds hold: a far-future expiry means "never", a negative one "expired".
    expiry = expiry < 0 ? 1 : Math.min(expiry, Long.MAX_VALUE / 1000);
    return Cookie.builder(f[5], f.length == 7 ? f[6].stripTrailing() : "")
        .domain(domain.toLowerCase(java.util.Locale.ROOT))
        .path(f[2].isEmpty() ? "/" : f[2])
        .expires(expiry == 0 ? null : Instant.ofEpochSecond(expiry))
        .secure(f[3].equalsIgnoreCase("TRUE"))
        .httpOnly(httpOnly)
        .hostOnly(hostOnly)
        .build();
  }
}
