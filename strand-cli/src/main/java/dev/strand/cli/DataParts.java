package dev.strand.cli;

import dev.strand.RequestBody;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

/**
 * The body (or, with {@code -G}, the query) that curl's data options make: each part read as its option
 * says, the parts joined by {@code &}.
 */
final class DataParts {
  private static final String FORM = "application/x-www-form-urlencoded";

  private DataParts() {}

  /**
   * One {@code --data-binary @FILE} (or {@code @-}) is streamed, never read whole; anything else is joined
   * in memory, as curl does.
   */
  static RequestBody body(List<Options.Data> parts) throws CliException {
    if (parts.size() == 1 && parts.get(0).kind() == Options.DataKind.BINARY && parts.get(0).value().startsWith("@")) {
      String file = parts.get(0).value().substring(1);
      return file.equals("-") ? RequestBody.ofInputStream(System.in, FORM)
          : RequestBody.ofFile(RequestFactory.readable(file), FORM);
    }
    return RequestBody.of(join(parts), FORM);
  }

  /** Every part, read and encoded, joined by {@code &}. */
  static byte[] join(List<Options.Data> parts) throws CliException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (int i = 0; i < parts.size(); i++) {
      if (i > 0) {
        all.write('&');
      }
      all.writeBytes(part(parts.get(i)));
    }
    return all.toByteArray();
  }

  private static byte[] part(Options.Data d) throws CliException {
    String v = d.value();
    return switch (d.kind()) {
      case RAW -> v.getBytes(StandardCharsets.UTF_8);
      case BINARY -> v.startsWith("@") ? read(v.substring(1)) : v.getBytes(StandardCharsets.UTF_8);
      // -d @FILE drops carriage returns and newlines, as curl does: a file of lines becomes one value.
      case ASCII -> v.startsWith("@") ? strip(read(v.substring(1))) : v.getBytes(StandardCharsets.UTF_8);
      case URLENCODE -> urlencoded(v);
    };
  }

  /** {@code content}, {@code =content}, {@code name=content}, {@code @FILE}, {@code name@FILE}. */
  private static byte[] urlencoded(String v) throws CliException {
    int eq = v.indexOf('=');
    int at = v.indexOf('@');
    if (eq >= 0 && (at < 0 || eq < at)) {
      String name = v.substring(0, eq);
      return ((name.isEmpty() ? "" : name + "=") + encode(v.substring(eq + 1).getBytes(StandardCharsets.UTF_8)))
          .getBytes(StandardCharsets.US_ASCII);
    }
    if (at >= 0) {
      String name = v.substring(0, at);
      return ((name.isEmpty() ? "" : name + "=") + encode(read(v.substring(at + 1)))).getBytes(StandardCharsets.US_ASCII);
    }
    return encode(v.getBytes(StandardCharsets.UTF_8)).getBytes(StandardCharsets.US_ASCII);
  }

  /** Form encoding as curl's: every byte but ALPHA, DIGIT and {@code -._~} percent-encoded, a space as {@code +}. */
  static String encode(byte[] bytes) {
    StringBuilder sb = new StringBuilder(bytes.length * 3);
    for (byte b : bytes) {
      int c = b & 0xFF;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
          || c == '_' || c == '~') {
        sb.append((char) c);
      } else if (c == ' ') {
        sb.append('+');
      } else {
        sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
      }
    }
    return sb.toString();
  }

  private static byte[] strip(byte[] bytes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length);
    for (byte b : bytes) {
      if (b != '\r' && b != '\n') {
        out.write(b);
      }
    }
    return out.toByteArray();
  }

  private static byte[] read(String file) throws CliException {
    try {
      if (file.equals("-")) {
        return System.in.readAllBytes();
      }
      return Files.readAllBytes(RequestFactory.readable(file));
    } catch (IOException e) {
      throw new CliException(Failures.READ_ERROR, "cannot read " + file + ": " + e.getMessage());
    }
  }
}
