package dev.strand.internal.cache;

import dev.strand.Headers;
import dev.strand.Request;
import dev.strand.ResponseHead;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * RFC 9111 for a private client cache, as pure steps with the time passed in: what may be stored, how
 * long it stays fresh, how old it is, and how a 304 updates it.
 */
final class CachePolicy {
  /** Statuses "heuristically cacheable" (RFC 9110 §15.1): stored without explicit freshness if validators allow. */
  private static final Set<Integer> CACHEABLE_BY_DEFAULT = Set.of(200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501);
  /** Fields a 304 must not replace in the stored head (RFC 9111 §3.2: the body's own framing). */
  private static final Set<String> KEPT_ON_UPDATE = Set.of("content-length", "content-encoding", "transfer-encoding",
      "content-range");

  private CachePolicy() {}

  /** Whether a request may be answered from the cache or its response stored at all. */
  static boolean cacheableRequest(Request request) {
    return request.method().equals("GET") && !CacheControl.parse(request.headers()).noStore();
  }

  /**
   * Whether {@code response} to {@code request} may be stored (RFC 9111 §3): not {@code no-store}, no
   * {@code Vary: *}, a status this cache understands with freshness or a validator, and for a request
   * with credentials only if the response says it may be shared ({@code public}, {@code s-maxage},
   * {@code must-revalidate}), since this cache does not tell users apart.
   */
  static boolean storable(Request request, ResponseHead response) {
    if (!cacheableRequest(request)) {
      return false;
    }
    CacheControl cc = CacheControl.parse(response.headers());
    if (cc.noStore()) {
      return false;
    }
    for (String vary : response.headers().all("Vary")) {
      if (vary.contains("*") || !fieldNames(vary)) {
        return false;
      }
    }
    if (request.headers().contains("Authorization") && !(cc.isPublic() || cc.sMaxAge() >= 0 || cc.mustRevalidate())) {
      return false;
    }
    boolean explicit = cc.maxAge() >= 0 || response.headers().contains("Expires") || cc.isPublic();
    if (explicit) {
      return response.status() == 200 || CACHEABLE_BY_DEFAULT.contains(response.status());
    }
    boolean validators = response.headers().contains("ETag") || response.headers().contains("Last-Modified");
    return CACHEABLE_BY_DEFAULT.contains(response.status()) && validators;
  }

  /** Freshness lifetime in milliseconds (RFC 9111 §4.2.1): max-age, else Expires − Date, else 10 % of Date − Last-Modified. */
  static long freshnessLifetimeMillis(CacheEntry e) {
    CacheControl cc = CacheControl.parse(e.headers());
    if (cc.maxAge() >= 0) {
      return cc.maxAge() * 1000;
    }
    long date = dateOr(e.headers().first("Date"), e.responseMillis());
    String expires = e.headers().first("Expires");
    if (expires != null) {
      long at = date(expires);
      return at < 0 ? 0 : Math.max(0, at - date); // an invalid Expires means "already expired"
    }
    long lastModified = date(e.headers().first("Last-Modified"));
    if (lastModified >= 0 && CACHEABLE_BY_DEFAULT.contains(e.status()) && lastModified <= date) {
      return (date - lastModified) / 10;
    }
    return 0;
  }

  /** Current age in milliseconds (RFC 9111 §4.2.3). */
  static long ageMillis(CacheEntry e, long nowMillis) {
    long date = dateOr(e.headers().first("Date"), e.responseMillis());
    long apparent = Math.max(0, e.responseMillis() - date);
    long ageValue = ageHeader(e.headers().first("Age"));
    long corrected = ageValue + (e.responseMillis() - e.requestMillis());
    return Math.max(apparent, corrected) + Math.max(0, nowMillis - e.responseMillis());
  }

  /**
   * Whether {@code e} may answer {@code request} without asking the server: fresh as the response and the
   * request's own directives ({@code no-cache}, {@code max-age}, {@code min-fresh}, {@code max-stale}) allow.
   */
  static boolean fresh(CacheEntry e, Request request, long nowMillis) {
    CacheControl stored = CacheControl.parse(e.headers());
    CacheControl asked = CacheControl.parse(request.headers());
    if (stored.noCache() || asked.noCache()) {
      return false;
    }
    long age = ageMillis(e, nowMillis);
    long lifetime = freshnessLifetimeMillis(e);
    if (asked.maxAge() >= 0) {
      lifetime = Math.min(lifetime, asked.maxAge() * 1000);
    }
    if (asked.minFresh() >= 0) {
      age += asked.minFresh() * 1000;
    }
    long staleAllowed = 0;
    if (asked.maxStale() >= 0 && !stored.mustRevalidate()) {
      staleAllowed = asked.maxStale() == Long.MAX_VALUE ? Long.MAX_VALUE / 4 : asked.maxStale() * 1000;
    }
    return age < lifetime + staleAllowed;
  }

  /** Whether the request's values of the stored response's Vary fields match those stored. */
  static boolean varyMatches(CacheEntry e, Request request) {
    for (int i = 0; i < e.varyRequestHeaders().size(); i++) {
      String name = e.varyRequestHeaders().name(i);
      if (!e.varyRequestHeaders().value(i).equals(joined(request.headers().all(name)))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a Vary value lists only field names (RFC 9110 §12.5.5). A response that varies on something else
   * cannot be matched to a later request, so it is not stored, as with {@code Vary: *}.
   */
  private static boolean fieldNames(String vary) {
    for (String name : vary.split(",")) {
      String n = name.strip();
      for (int i = 0; i < n.length(); i++) {
        char c = n.charAt(i);
        if (c <= ' ' || c >= 127 || "\"(),/:;<=>?@[\\]{}".indexOf(c) >= 0) {
          return false;
        }
      }
    }
    return true;
  }

  /** The request's values of each field {@code response} varies on, to store beside it (a storable response). */
  static Headers varyRequestHeaders(Request request, Headers response) {
    Headers.Builder b = Headers.builder();
    for (String vary : response.all("Vary")) {
      for (String name : vary.split(",")) {
        String n = name.strip().toLowerCase(Locale.ROOT);
        if (!n.isEmpty() && !b.contains(n)) {
          b.add(n, joined(request.headers().all(n)));
        }
      }
    }
    return b.build();
  }

  /** {@code request} made conditional on {@code e}'s validators, or {@code null} if it has none. */
  static Request conditional(Request request, CacheEntry e) {
    String etag = e.headers().first("ETag");
    String lastModified = e.headers().first("Last-Modified");
    if (etag == null && lastModified == null) {
      return null;
    }
    Request.Builder b = request.toBuilder();
    if (etag != null) {
      b.setHeader("If-None-Match", etag);
    }
    if (lastModified != null) {
      b.setHeader("If-Modified-Since", lastModified);
    }
    return b.build();
  }

  /** The stored head updated with a 304's fields (RFC 9111 §4.3.4), the body's own framing kept. */
  static Headers merged(Headers stored, Headers notModified) {
    Headers.Builder b = stored.toBuilder();
    for (int i = 0; i < notModified.size(); i++) {
      String name = notModified.name(i);
      if (!KEPT_ON_UPDATE.contains(name.toLowerCase(Locale.ROOT))) {
        b.remove(name);
      }
    }
    for (int i = 0; i < notModified.size(); i++) {
      String name = notModified.name(i);
      if (!KEPT_ON_UPDATE.contains(name.toLowerCase(Locale.ROOT))) {
        b.add(name, notModified.value(i));
      }
    }
    return b.build();
  }

  /** Methods whose success makes the stored response of their URL stale (RFC 9111 §4.4). */
  static boolean invalidates(Request request, int status) {
    return status >= 200 && status < 400 && switch (request.method()) {
      case "GET", "HEAD", "OPTIONS", "TRACE", "QUERY" -> false;
      default -> true;
    };
  }

  private static String joined(List<String> values) {
    return String.join(", ", values);
  }

  private static long ageHeader(String v) {
    if (v == null || v.isBlank() || !v.strip().chars().allMatch(c -> c >= '0' && c <= '9') || v.strip().length() > 10) {
      return 0;
    }
    return Long.parseLong(v.strip()) * 1000;
  }

  private static long dateOr(String value, long otherwise) {
    long d = date(value);
    return d < 0 ? otherwise : d;
  }

  /** An HTTP-date in epoch milliseconds, or -1. */
  static long date(String value) {
    if (value == null) {
      return -1;
    }
    try {
      return ZonedDateTime.parse(value.strip(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      return -1;
    }
  }
}
