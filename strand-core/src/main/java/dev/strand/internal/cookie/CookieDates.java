package dev.strand.internal.cookie;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.ZoneOffset;

/** The lenient cookie-date algorithm of RFC 6265 section 5.1.1, which real Expires values need. */
final class CookieDates {
  private static final String[] MONTHS = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};

  private CookieDates() {}

  /** Epoch millis (UTC), or {@code Long.MIN_VALUE} if {@code text} is not a cookie date. */
  static long parse(String text) {
    int hour = -1;
    int minute = -1;
    int second = -1;
    int day = -1;
    int month = -1;
    int year = -1;
    int i = 0;
    int n = text.length();
    while (i < n) {
      while (i < n && isDelimiter(text.charAt(i))) {
        i++;
      }
      int start = i;
      while (i < n && !isDelimiter(text.charAt(i))) {
        i++;
      }
      if (start == i) {
        break;
      }
      String token = text.substring(start, i);
      int[] hms;
      if (hour < 0 && (hms = time(token)) != null) {
        hour = hms[0];
        minute = hms[1];
        second = hms[2];
      } else if (day < 0 && leadingDigits(token, 1, 2) >= 0) {
        day = leadingDigits(token, 1, 2);
      } else if (month < 0 && month(token) >= 0) {
        month = month(token);
      } else if (year < 0 && leadingDigits(token, 2, 4) >= 0) {
        year = leadingDigits(token, 2, 4);
      }
    }
    if (year >= 70 && year <= 99) {
      year += 1900;
    } else if (year >= 0 && year <= 69) {
      year += 2000;
    }
    if (hour < 0 || day < 1 || day > 31 || month < 0 || year < 1601 || hour > 23 || minute > 59 || second > 59) {
      return Long.MIN_VALUE;
    }
    try {
      return LocalDate.of(year, month + 1, day).atTime(hour, minute, second).toInstant(ZoneOffset.UTC).toEpochMilli();
    } catch (DateTimeException invalidDay) { // e.g. 31 Feb
      return Long.MIN_VALUE;
    }
  }

  private static boolean isDelimiter(char c) {
    return c == 0x09 || (c >= 0x20 && c <= 0x2f) || (c >= 0x3b && c <= 0x40) || (c >= 0x5b && c <= 0x60)
        || (c >= 0x7b && c <= 0x7e);
  }

  /** The number formed by min..max leading digits followed by a non-digit or the end, else -1. */
  private static int leadingDigits(String token, int min, int max) {
    int digits = 0;
    while (digits < token.length() && isDigit(token.charAt(digits))) {
      digits++;
    }
    if (digits < min || digits > max) {
      return -1;
    }
    return Integer.parseInt(token, 0, digits, 10);
  }

  /** hh:mm:ss with one or two digits each, optionally followed by non-digits. */
  private static int[] time(String token) {
    int[] out = new int[3];
    int pos = 0;
    for (int field = 0; field < 3; field++) {
      int start = pos;
      while (pos < token.length() && pos - start < 3 && isDigit(token.charAt(pos))) {
        pos++;
      }
      int len = pos - start;
      if (len < 1 || len > 2) {
        return null;
      }
      out[field] = Integer.parseInt(token, start, pos, 10);
      if (field < 2) {
        if (pos >= token.length() || token.charAt(pos) != ':') {
          return null;
        }
        pos++;
      }
    }
    return pos < token.length() && isDigit(token.charAt(pos)) ? null : out;
  }

  private static int month(String token) {
    if (token.length() < 3) {
      return -1;
    }
    for (int m = 0; m < 12; m++) {
      if (token.regionMatches(true, 0, MONTHS[m], 0, 3)) {
        return m;
      }
    }
    return -1;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
