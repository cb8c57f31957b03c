package dev.strand.cli;

import dev.strand.StreamingResponse;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** curl's {@code -O} and {@code -J}: the local file name a response is saved under. */
final class RemoteName {
  private RemoteName() {}

  /**
   * The last segment of the URL's path (of the request that got {@code response}, after redirects), or with
   * {@code fromHeader} the file name that {@code Content-Disposition} gives, its directories removed.
   *
   * @throws CliException exit 23 when there is no name, or when {@code -J}'s name exists already (curl does
   *     not overwrite it either)
   */
  static String of(StreamingResponse response, boolean fromHeader) throws CliException {
    if (fromHeader) {
      String disposition = response.headers().first("Content-Disposition");
      String name = disposition == null ? null : fileName(disposition);
      if (name != null) {
        if (Files.exists(Path.of(name))) {
          throw new CliException(Failures.WRITE_ERROR, "refusing to overwrite " + name + " (-J names it after the server)");
        }
        return name;
      }
    }
    String path = response.request() == null ? "" : response.request().url().getRawPath();
    String last = path == null ? "" : path.substring(path.lastIndexOf('/') + 1);
    if (last.isEmpty()) {
      throw new CliException(Failures.WRITE_ERROR, "the URL has no file name for -O to use: give -o FILE");
    }
    return last;
  }

  /** {@code filename*=UTF-8''...} before {@code filename=...}; the base name only, never a path. */
  static String fileName(String disposition) {
    String extended = parameter(disposition, "filename*");
    String name = null;
    if (extended != null) {
      int quote = extended.indexOf("''");
      if (quote >= 0) {
        name = URLDecoder.decode(extended.substring(quote + 2).replace("+", "%2B"), StandardCharsets.UTF_8);
      }
    }
    if (name == null) {
      name = parameter(disposition, "filename");
    }
    if (name == null) {
      return null;
    }
    String base = name.substring(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
    return base.isEmpty() || base.equals(".") || base.equals("..") ? null : base;
  }

  private static String parameter(String header, String name) {
    for (String part : header.split(";")) {
      int eq = part.indexOf('=');
      if (eq > 0 && part.substring(0, eq).strip().toLowerCase(Locale.ROOT).equals(name)) {
        String v = part.substring(eq + 1).strip();
        return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
      }
    }
    return null;
  }
}
