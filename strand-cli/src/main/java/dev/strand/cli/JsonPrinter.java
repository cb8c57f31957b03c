package dev.strand.cli;

/**
 * Re-indents JSON text for a terminal, optionally with ANSI colours. Tokens are copied as they are
 * (numbers and string escapes keep their exact spelling); only whitespace changes. Text that is not
 * one valid JSON value yields {@code null}, so the caller prints the body unchanged.
 *
 * @implNote A small hand-written scanner instead of Jackson: it loads two classes, where a Jackson
 *     tree would add dozens to every pretty-printed call.
 */
final class JsonPrinter {
  static final String KEY = "\u001b[1;34m";
  static final String STRING = "\u001b[32m";
  static final String NUMBER = "\u001b[36m";
  static final String LITERAL = "\u001b[33m";
  static final String RESET = "\u001b[0m";
  private static final int MAX_DEPTH = 500;

  private final String in;
  private final boolean color;
  private final StringBuilder out;
  private int pos;

  private JsonPrinter(String in, boolean color) {
    this.in = in;
    this.color = color;
    this.out = new StringBuilder(in.length() + in.length() / 2);
  }

  /** The pretty form with a trailing newline, or {@code null} if {@code json} is not valid JSON. */
  static String format(String json, boolean color) {
    JsonPrinter p = new JsonPrinter(json, color);
    try {
      p.skipSpace();
      p.value(0);
      p.skipSpace();
      if (p.pos != json.length()) {
        return null;
      }
    } catch (IllegalArgumentException | IndexOutOfBoundsException invalid) {
      return null;
    }
    return p.out.append('\n').toString();
  }

  private void value(int depth) {
    if (depth > MAX_DEPTH) {
      throw new IllegalArgumentException("too deep");
    }
    char c = in.charAt(pos);
    switch (c) {
      case '{' -> container(depth, '}', true);
      case '[' -> container(depth, ']', false);
      case '"' -> colored(STRING, string());
      case 't' -> colored(LITERAL, literal("true"));
      case 'f' -> colored(LITERAL, literal("false"));
      case 'n' -> colored(LITERAL, literal("null"));
      default -> colored(NUMBER, number());
    }
  }

  private void container(int depth, char close, boolean object) {
    out.append(in.charAt(pos++));
    skipSpace();
    if (in.charAt(pos) == close) {
      out.append(close);
      pos++;
      return;
    }
    while (true) {
      newline(depth + 1);
      if (object) {
        if (in.charAt(pos) != '"') {
          throw new IllegalArgumentException("expected a key");
        }
        colored(KEY, string());
        skipSpace();
        expect(':');
        out.append(": ");
        skipSpace();
      }
      value(depth + 1);
      skipSpace();
      char c = in.charAt(pos++);
      if (c == close) {
        newline(depth);
        out.append(close);
        return;
      }
      if (c != ',') {
        throw new IllegalArgumentException("expected , or " + close);
      }
      out.append(',');
      skipSpace();
    }
  }

  private String string() {
    int start = pos++;
    while (true) {
      char c = in.charAt(pos++);
      if (c == '"') {
        return in.substring(start, pos);
      }
      if (c == '\\') {
        char e = in.charAt(pos++);
        if (e == 'u') {
          for (int i = 0; i < 4; i++) {
            if (Character.digit(in.charAt(pos++), 16) < 0) {
              throw new IllegalArgumentException("bad \\u escape");
            }
          }
        } else if ("\"\\/bfnrt".indexOf(e) < 0) {
          throw new IllegalArgumentException("bad escape");
        }
      } else if (c < 0x20) {
        throw new IllegalArgumentException("control character in string");
      }
    }
  }

  private String literal(String word) {
    if (!in.startsWith(word, pos)) {
      throw new IllegalArgumentException("expected " + word);
    }
    pos += word.length();
    return word;
  }

  /** RFC 8259 number: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
  private String number() {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    if (peek() == '0') {
      pos++;
    } else {
      digits();
    }
    if (peek() == '.') {
      pos++;
      digits();
    }
    if (peek() == 'e' || peek() == 'E') {
      pos++;
      if (peek() == '+' || peek() == '-') {
        pos++;
      }
      digits();
    }
    return in.substring(start, pos);
  }

  private void digits() {
    int start = pos;
    while (peek() >= '0' && peek() <= '9') {
      pos++;
    }
    if (pos == start) {
      throw new IllegalArgumentException("expected a digit");
    }
  }

  private char peek() {
    return pos < in.length() ? in.charAt(pos) : '\0';
  }

  private void expect(char c) {
    if (in.charAt(pos++) != c) {
      throw new IllegalArgumentException("expected " + c);
    }
  }

  private void skipSpace() {
    while (pos < in.length()) {
      char c = in.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private void newline(int depth) {
    out.append('\n');
    for (int i = 0; i < depth; i++) {
      out.append("  ");
    }
  }

  private void colored(String ansi, String token) {
    if (color) {
      out.append(ansi).append(token).append(RESET);
    } else {
      out.append(token);
    }
  }

  /** Whether a Content-Type names JSON: {@code application/json}, {@code application/problem+json}, … */
  static boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    int semi = contentType.indexOf(';');
    String type = (semi < 0 ? contentType : contentType.substring(0, semi)).strip().toLowerCase(java.util.Locale.ROOT);
    return type.equals("application/json") || type.endsWith("+json") || type.equals("text/json");
  }
}
