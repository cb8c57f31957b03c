package dev.strand.internal.text;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Locale;

/**
 * Which charset a response body is text in, and decoding it leniently or strictly. Pure functions.
 *
 * <p>The order: the charset Content-Type declares; else a byte order mark (UTF-8, UTF-16BE, UTF-16LE);
 * else UTF-8 for JSON, which RFC 8259 requires to be UTF-8; else the caller's default. A byte order mark
 * of the chosen charset is not part of the text and is skipped.
 */
public final class TextDecoding {
  private TextDecoding() {}

  /**
   * The charset and the number of leading bytes (a byte order mark) to skip.
   *
   * @param unsupported the declared charset name when this JVM has no such charset (the choice then
   *     falls through to the next rule), else {@code null}
   */
  public record Choice(Charset charset, int skip, String unsupported) {}

  /** The choice for {@code body} with this Content-Type (may be null) and default charset. */
  public static Choice choose(byte[] body, String contentType, Charset fallback) {
    String name = parameter(contentType, "charset");
    String unsupported = null;
    if (name != null) {
      Charset declared = forName(name);
      if (declared != null) {
        return new Choice(declared, bomLength(body, declared), null);
      }
      unsupported = name;
    }
    Charset bom = bomCharset(body);
    if (bom != null) {
      return new Choice(bom, bomLength(body, bom), unsupported);
    }
    Charset cs = isJson(contentType) ? StandardCharsets.UTF_8 : fallback;
    return new Choice(cs, bomLength(body, cs), unsupported);
  }

  /** {@code body} from {@code offset} as text; malformed or unmappable input becomes U+FFFD. */
  public static String lenient(byte[] body, int offset, Charset charset) {
    return new String(body, offset, body.length - offset, charset);
  }

  /**
   * {@code body} from {@code offset} as text.
   *
   * @throws MalformedTextException at the first byte sequence that is not valid in {@code charset}
   */
  public static String strict(byte[] body, int offset, Charset charset) throws MalformedTextException {
    CharsetDecoder decoder = charset.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(body, offset, body.length - offset);
    CharBuffer out = CharBuffer.allocate(Math.max(16, in.remaining()));
    while (true) {
      CoderResult result = decoder.decode(in, out, true);
      if (result.isError()) {
        throw new MalformedTextException(charset, in.position(), result.length());
      }
      if (!result.isOverflow()) {
        break; // underflow: every byte consumed
      }
      out = grow(out);
    }
    while (decoder.flush(out).isOverflow()) {
      out = grow(out);
    }
    return out.flip().toString();
  }

  /** The bytes of the byte order mark of {@code charset} that {@code body} starts with, or 0. */
  public static int bomLength(byte[] body, Charset charset) {
    Charset bom = bomCharset(body);
    if (bom == null) {
      return 0;
    }
    if (bom.equals(charset)) {
      return bom.equals(StandardCharsets.UTF_8) ? 3 : 2;
    }
    return 0; // "UTF-16" (no byte order given) reads its own mark; any other charset keeps the bytes
  }

  /** The charset whose byte order mark starts {@code body}, or null. */
  static Charset bomCharset(byte[] b) {
    if (b.length >= 3 && (b[0] & 0xff) == 0xEF && (b[1] & 0xff) == 0xBB && (b[2] & 0xff) == 0xBF) {
      return StandardCharsets.UTF_8;
    }
    if (b.length >= 2 && (b[0] & 0xff) == 0xFE && (b[1] & 0xff) == 0xFF) {
      return StandardCharsets.UTF_16BE;
    }
    if (b.length >= 2 && (b[0] & 0xff) == 0xFF && (b[1] & 0xff) == 0xFE) {
      return StandardCharsets.UTF_16LE;
    }
    return null;
  }

  /** {@code application/json} and any {@code +json} type. */
  static boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    int semi = contentType.indexOf(';');
    String type = (semi < 0 ? contentType : contentType.substring(0, semi)).strip().toLowerCase(Locale.ROOT);
    return type.equals("application/json") || type.endsWith("+json");
  }

  /** A parameter's value of a media type (quotes removed), or null. */
  static String parameter(String contentType, String name) {
    if (contentType == null) {
      return null;
    }
    String[] parts = contentType.split(";");
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i].strip();
      int eq = p.indexOf('=');
      if (eq > 0 && p.substring(0, eq).strip().equalsIgnoreCase(name)) {
        String v = p.substring(eq + 1).strip();
        if (v.length() >= 2 && v.charAt(0) == '"' && v.charAt(v.length() - 1) == '"') {
          v = v.substring(1, v.length() - 1);
        }
        return v.isEmpty() ? null : v;
      }
    }
    return null;
  }

  private static Charset forName(String name) {
    try {
      return Charset.forName(name);
    } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
      return null;
    }
  }

  private static CharBuffer grow(CharBuffer out) {
    CharBuffer bigger = CharBuffer.allocate(out.capacity() * 2);
    return bigger.put(out.flip());
  }

  /** A byte sequence that is not text in the charset. */
  public static final class MalformedTextException extends Exception {
    private final transient Charset charset;
    private final int offset;

    MalformedTextException(Charset charset, int offset, int length) {
      super(length + " byte(s) at offset " + offset + " of the body are not valid " + charset.name());
      this.charset = charset;
      this.offset = offset;
    }

    public Charset charset() {
      return charset;
    }

    /** The index in the body of the first bad byte. */
    public int offset() {
      return offset;
    }
  }
}
