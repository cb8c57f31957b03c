package dev.strand.internal.auth;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Parses {@code WWW-Authenticate} values into challenges (RFC 9110 section 11.6.1): a scheme and its
 * parameters, several challenges to a field value, separated by commas. A token68 (Basic's realm-less
 * form) is skipped: no scheme Strand answers uses one.
 */
final class Challenges {
  private final String s;
  private int pos;

  private Challenges(String s) {
    this.s = s;
  }

  /** A challenge: its scheme and its parameters, names in lower case. */
  record Challenge(String scheme, Map<String, String> params) {
    String param(String name) {
      return params.get(name);
    }
  }

  /** The challenges of every value, in order. */
  static List<Challenge> parse(List<String> values) {
    List<Challenge> out = new ArrayList<>();
    for (String value : values) {
      new Challenges(value).parseInto(out);
    }
    return out;
  }

  private void parseInto(List<Challenge> out) {
    String scheme = null;
    Map<String, String> params = null;
    while (true) {
      skip(", \t");
      if (pos >= s.length()) {
        break;
      }
      String token = token();
      if (token.isEmpty()) {
        pos++; // a stray character: step over it rather than loop
        continue;
      }
      int afterToken = pos;
      skip(" \t");
      if (scheme != null && pos < s.length() && s.charAt(pos) == '=') {
        pos++;
        skip(" \t");
        if (pos < s.length() && s.charAt(pos) == '=') { // token68 padding, not a parameter
          skip("=");
          continue;
        }
        params.put(token.toLowerCase(Locale.ROOT), value());
        continue;
      }
      pos = afterToken;
      if (scheme != null) {
        out.add(new Challenge(scheme, params));
      }
      scheme = token;
      params = new HashMap<>();
    }
    if (scheme != null) {
      out.add(new Challenge(scheme, params));
    }
  }

  private String value() {
    if (pos < s.length() && s.charAt(pos) == '"') {
      StringBuilder sb = new StringBuilder();
      pos++;
      while (pos < s.length() && s.charAt(pos) != '"') {
        char c = s.charAt(pos++);
        if (c == '\\' && pos < s.length()) {
          c = s.charAt(pos++);
        }
        sb.append(c);
      }
      pos++; // the closing quote, if any
      return sb.toString();
    }
    return token();
  }

  private String token() {
    int start = pos;
    while (pos < s.length() && " \t,=\"".indexOf(s.charAt(pos)) < 0) {
      pos++;
    }
    return s.substring(start, pos);
  }

  private void skip(String chars) {
    while (pos < s.length() && chars.indexOf(s.charAt(pos)) >= 0) {
      pos++;
    }
  }
}
