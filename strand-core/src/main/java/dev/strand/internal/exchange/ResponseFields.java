package dev.strand.internal.exchange;

import dev.strand.Headers;
import java.util.Map;

/** A response head as HTTP/2 and HTTP/3 carry it: the {@code :status} pseudo-header and the regular fields. */
public final class ResponseFields {
  private ResponseFields() {}

  /** The code of a {@code :status} of three digits from 100 to 999, or -1. */
  public static int status(CharSequence status) {
    if (status == null || status.length() != 3 || status.charAt(0) < '1' || status.charAt(0) > '9') {
      return -1;
    }
    int code = 0;
    for (int i = 0; i < 3; i++) {
      char c = status.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      code = code * 10 + (c - '0');
    }
    return code;
  }

  /**
   * The regular fields, pseudo-headers dropped.
   *
   * @throws IllegalArgumentException if a name or value is not valid
   */
  public static Headers regular(Iterable<Map.Entry<CharSequence, CharSequence>> fields) {
    Headers.Builder b = Headers.builder();
    for (Map.Entry<CharSequence, CharSequence> e : fields) {
      CharSequence name = e.getKey();
      if (name.length() > 0 && name.charAt(0) == ':') {
        continue;
      }
      b.add(name.toString(), e.getValue().toString());
    }
    return b.build();
  }

  /** The {@code content-length} field's value, or -1 if it is missing or not a number. */
  public static long contentLength(Headers headers) {
    String v = headers.first("content-length");
    if (v == null) {
      return -1;
    }
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
