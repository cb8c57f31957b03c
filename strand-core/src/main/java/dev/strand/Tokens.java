package dev.strand;

/** RFC 9110 token rules, shared by header names and methods. */
final class Tokens {
  private static final boolean[] TCHAR = new boolean[128];

  static {
    for (char c = '0'; c <= '9'; c++) TCHAR[c] = true;
    for (char c = 'a'; c <= 'z'; c++) TCHAR[c] = true;
    for (char c = 'A'; c <= 'Z'; c++) TCHAR[c] = true;
    for (char c : "!#$%&'*+-.^_`|~".toCharArray()) TCHAR[c] = true;
  }

  private Tokens() {}

  static boolean isToken(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 128 || !TCHAR[c]) {
        return false;
      }
    }
    return true;
  }

  /** The string with control characters shown as escapes, for error messages. */
  static String printable(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\r') sb.append("\\r");
      else if (c == '\n') sb.append("\\n");
      else if (c < 0x20 || c == 0x7f) sb.append(String.format("\\x%02x", (int) c));
      else sb.append(c);
    }
    return sb.toString();
  }
}
