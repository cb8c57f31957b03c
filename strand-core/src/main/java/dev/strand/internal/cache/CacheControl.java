package dev.strand.internal.cache;

import dev.strand.Headers;
import java.util.Locale;

/**
 * The directives of {@code Cache-Control} fields (RFC 9111 §5.2) that a private cache acts on. Unknown
 * directives are ignored and a malformed number counts as absent, as the RFC asks; repeated fields combine.
 *
 * @param maxAge seconds, or -1
 * @param sMaxAge seconds, or -1 (read only to allow storing authorised responses)
 * @param maxStale seconds a request accepts beyond freshness, -1 if absent, {@link Long#MAX_VALUE} without a value
 * @param minFresh seconds a request wants left, or -1
 */
record CacheControl(boolean noStore, boolean noCache, long maxAge, long sMaxAge, boolean isPublic, boolean isPrivate,
    boolean mustRevalidate, boolean onlyIfCached, long maxStale, long minFresh) {

  static CacheControl parse(Headers headers) {
    boolean noStore = false;
    boolean noCache = false;
    boolean isPublic = false;
    boolean isPrivate = false;
    boolean mustRevalidate = false;
    boolean onlyIfCached = false;
    long maxAge = -1;
    long sMaxAge = -1;
    long maxStale = -1;
    long minFresh = -1;
    for (String field : headers.all("Cache-Control")) {
      for (String part : field.split(",")) {
        String directive = part.strip();
        int eq = directive.indexOf('=');
        String name = (eq < 0 ? directive : directive.substring(0, eq)).strip().toLowerCase(Locale.ROOT);
        String value = eq < 0 ? null : unquote(directive.substring(eq + 1).strip());
        switch (name) {
          case "no-store" -> noStore = true;
          case "no-cache" -> noCache = true; // with field names too: this cache revalidates the whole response
          case "public" -> isPublic = true;
          case "private" -> isPrivate = true;
          case "must-revalidate", "proxy-revalidate" -> mustRevalidate = true;
          case "only-if-cached" -> onlyIfCached = true;
          case "max-age" -> maxAge = seconds(value, maxAge);
          case "s-maxage" -> sMaxAge = seconds(value, sMaxAge);
          case "max-stale" -> maxStale = value == null ? Long.MAX_VALUE : seconds(value, maxStale);
          case "min-fresh" -> minFresh = seconds(value, minFresh);
          default -> { }
        }
      }
    }
    if (headers.all("Cache-Control").isEmpty() && "no-cache".equalsIgnoreCase(headers.first("Pragma"))) {
      noCache = true; // HTTP/1.0's form, honoured when Cache-Control is absent
    }
    return new CacheControl(noStore, noCache, maxAge, sMaxAge, isPublic, isPrivate, mustRevalidate, onlyIfCached,
        maxStale, minFresh);
  }

  private static String unquote(String v) {
    return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
  }

  /** Delta-seconds (RFC 9111 §1.2.2): digits only; too large means "a very long time". */
  private static long seconds(String value, long otherwise) {
    if (value == null || value.isEmpty() || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return otherwise;
    }
    return value.length() > 10 ? Integer.MAX_VALUE : Long.parseLong(value);
  }
}
