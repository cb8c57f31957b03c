package dev.strand.internal.cache;

import dev.strand.Headers;
import dev.strand.Request;
import dev.strand.Version;
import java.io.IOException;

/** The cache's header parsers and file format, for the fuzz targets (dev.strand.fuzz). */
public final class CacheFuzzEntryPoints {
  private CacheFuzzEntryPoints() {}

  public static String cacheControl(Headers headers) {
    return CacheControl.parse(headers).toString();
  }

  /** Freshness, age and Vary of a stored 200 with {@code responseHeaders}, asked again by {@code request}. */
  public static void freshness(Request request, Headers responseHeaders, long nowMillis) {
    if (!CachePolicy.storable(request, dev.strand.Response.builder(200).headers(responseHeaders).request(request).build())) {
      return;
    }
    CacheEntry e = new CacheEntry(request.url().toString(), CachePolicy.varyRequestHeaders(request, responseHeaders), 200,
        "OK", Version.HTTP_1_1, responseHeaders, new byte[0], nowMillis - 1000, nowMillis - 500);
    CachePolicy.freshnessLifetimeMillis(e);
    CachePolicy.ageMillis(e, nowMillis);
    CachePolicy.fresh(e, request, nowMillis);
    CachePolicy.varyMatches(e, request);
    CachePolicy.conditional(request, e);
    CachePolicy.date(responseHeaders.first("Date"));
  }

  /** The entry a cache file holds, re-encoded (null if the file is not an entry). */
  public static byte[] decodeAndEncode(byte[] file) throws IOException {
    CacheEntry e = DiskStore.decode(file);
    return e == null ? null : DiskStore.encode(e);
  }

  /** A valid cache file for {@code url} with these parts, to seed the corpus and check the round trip. */
  public static byte[] encode(String url, Headers headers, byte[] body) {
    return DiskStore.encode(new CacheEntry(url, Headers.EMPTY, 200, "OK", Version.HTTP_1_1, headers, body, 1, 2));
  }
}
