package dev.strand.internal.cookie;

import java.util.Locale;

/** Parses a Set-Cookie value and applies the storage rules of RFC 6265 (sections 5.2 and 5.3). */
final class SetCookieParser {
  private SetCookieParser() {}

  /**
   * The cookie to store, or {@code null} if it must be ignored. An already expired cookie is
   * returned (the jar uses it to delete its namesake) with {@code expiresAt <= now}.
   *
   * @param host the request host, lower case
   * @param path the request path (raw)
   */
  static StoredCookie parse(String setCookie, String host, String path, boolean https, long now, long creation) {
    int semi = setCookie.indexOf(';');
    String pair = semi < 0 ? setCookie : setCookie.substring(0, semi);
    int eq = pair.indexOf('=');
    if (eq < 0) {
      return null;
    }
    String name = pair.substring(0, eq).strip();
    String value = pair.substring(eq + 1).strip();
    if (name.isEmpty() || hasControl(name) || hasControl(value)) {
      // RFC 6265bis §5.7 ignores a cookie whose name or value holds a control character; a tab too, as curl does,
      // since a cookies.txt line (tab-separated) cannot hold one.
      return null;
    }
    long expires = Long.MIN_VALUE;
    long maxAgeExpiry = Long.MIN_VALUE;
    boolean hasMaxAge = false;
    String domain = null;
    String cookiePath = null;
    boolean secure = false;
    boolean httpOnly = false;
    int pos = semi;
    while (pos >= 0 && pos < setCookie.length()) {
      int next = setCookie.indexOf(';', pos + 1);
      String av = setCookie.substring(pos + 1, next < 0 ? setCookie.length() : next);
      pos = next;
      int avEq = av.indexOf('=');
      String attr = (avEq < 0 ? av : av.substring(0, avEq)).strip().toLowerCase(Locale.ROOT);
      String attrValue = avEq < 0 ? "" : av.substring(avEq + 1).strip();
      switch (attr) {
        case "expires" -> {
          long t = CookieDates.parse(attrValue);
          if (t != Long.MIN_VALUE) {
            expires = t;
          }
        }
        case "max-age" -> {
          Long seconds = parseMaxAge(attrValue);
          if (seconds != null) {
            hasMaxAge = true;
            maxAgeExpiry = seconds <= 0 ? Long.MIN_VALUE + 1 : saturatedAdd(now, seconds);
          }
        }
        case "domain" -> {
          if (!attrValue.isEmpty()) {
            String d = attrValue.charAt(0) == '.' ? attrValue.substring(1) : attrValue;
            domain = d.toLowerCase(Locale.ROOT);
          }
        }
        case "path" -> cookiePath = attrValue.isEmpty() || attrValue.charAt(0) != '/' || hasControl(attrValue) ? null : attrValue;
        case "secure" -> secure = true;
        case "httponly" -> httpOnly = true;
        default -> { } // SameSite and unknown attributes have no effect on a client without a browser context
      }
    }
    boolean persistent = hasMaxAge || expires != Long.MIN_VALUE;
    long expiresAt = hasMaxAge ? maxAgeExpiry : expires != Long.MIN_VALUE ? expires : Long.MAX_VALUE;
    boolean hostOnly;
    if (domain != null && !domain.isEmpty() && !domain.equals(host)) {
      if (Domains.isPublicSuffix(domain) || !Domains.domainMatch(host, domain)) {
        return null;
      }
      hostOnly = false;
    } else {
      hostOnly = true;
      domain = host;
    }
    if (secure && !https) {
      return null; // RFC 6265bis: only a secure origin may set a Secure cookie
    }
    if (cookiePath == null) {
      cookiePath = Domains.defaultPath(path);
    }
    return new StoredCookie(name, value, domain, cookiePath, expiresAt, persistent, secure, httpOnly, hostOnly, creation);
  }

  private static boolean hasControl(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        return true;
      }
    }
    return false;
  }

  /** Delta-seconds (digits, optionally negative), or null if malformed. */
  private static Long parseMaxAge(String s) {
    if (s.isEmpty()) {
      return null;
    }
    int start = s.charAt(0) == '-' ? 1 : 0;
    if (start == s.length()) {
      return null;
    }
    for (int i = start; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return null;
      }
    }
    if (start == 1) {
      return -1L;
    }
    return s.length() > 15 ? Long.MAX_VALUE / 1000 : Long.parseLong(s);
  }

  private static long saturatedAdd(long nowMillis, long seconds) {
    long millis = seconds > Long.MAX_VALUE / 1000 ? Long.MAX_VALUE : seconds * 1000;
    long sum = nowMillis + millis;
    return sum < nowMillis ? Long.MAX_VALUE - 1 : Math.min(sum, Long.MAX_VALUE - 1);
  }
}
