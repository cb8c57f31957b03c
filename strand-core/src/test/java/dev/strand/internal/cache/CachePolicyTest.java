package dev.strand.internal.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Headers;
import dev.strand.Request;
import dev.strand.Version;
import org.junit.jupiter.api.Test;

/** RFC 9111 freshness, age and update rules at exact times. */
class CachePolicyTest {
  private static final long T0 = 1_795_897_600_000L; // DATE_T0 in epoch ms
  private static final String DATE_T0 = "Sat, 28 Nov 2026 20:26:40 GMT";

  private static CacheEntry entry(String... headers) {
    return new CacheEntry("http://h/x", Headers.EMPTY, 200, "OK", Version.HTTP_1_1, Headers.of(headers), new byte[0], T0, T0);
  }

  @Test
  void theDateIsWhatTheTestsAssume() {
    assertEquals(T0, CachePolicy.date(DATE_T0));
  }

  @Test
  void freshnessComesFromMaxAgeThenExpiresThenLastModified() {
    assertEquals(60_000, CachePolicy.freshnessLifetimeMillis(entry("Cache-Control", "max-age=60", "Expires", "garbage")));
    assertEquals(120_000, CachePolicy.freshnessLifetimeMillis(entry("Date", DATE_T0, "Expires", "Sat, 28 Nov 2026 20:28:40 GMT")));
    assertEquals(0, CachePolicy.freshnessLifetimeMillis(entry("Date", DATE_T0, "Expires", "0")), "invalid Expires: expired");
    assertEquals(100_000, CachePolicy.freshnessLifetimeMillis(entry("Date", DATE_T0, "Last-Modified", "Sat, 28 Nov 2026 20:10:00 GMT")),
        "10 % of the 1,000 s since Last-Modified");
    assertEquals(0, CachePolicy.freshnessLifetimeMillis(entry("Date", DATE_T0)));
  }

  @Test
  void ageCountsTheAgeFieldAndTheTimeSinceReceipt() {
    CacheEntry e = new CacheEntry("http://h/x", Headers.EMPTY, 200, "OK", Version.HTTP_1_1,
        Headers.of("Date", DATE_T0, "Age", "10"), new byte[0], T0 - 500, T0);
    assertEquals(10_500 + 5_000, CachePolicy.ageMillis(e, T0 + 5_000));
  }

  @Test
  void requestDirectivesNarrowOrWidenFreshness() {
    CacheEntry e = entry("Date", DATE_T0, "Cache-Control", "max-age=60");
    Request plain = Request.get("http://h/x");
    assertTrue(CachePolicy.fresh(e, plain, T0 + 59_000));
    assertFalse(CachePolicy.fresh(e, plain, T0 + 60_000));
    assertFalse(CachePolicy.fresh(e, with("max-age=10"), T0 + 11_000));
    assertFalse(CachePolicy.fresh(e, with("min-fresh=30"), T0 + 31_000));
    assertTrue(CachePolicy.fresh(e, with("max-stale=100"), T0 + 120_000));
    assertTrue(CachePolicy.fresh(e, with("max-stale"), T0 + 10_000_000));
    assertFalse(CachePolicy.fresh(e, with("no-cache"), T0));
    CacheEntry mustRevalidate = entry("Date", DATE_T0, "Cache-Control", "max-age=60, must-revalidate");
    assertFalse(CachePolicy.fresh(mustRevalidate, with("max-stale=100"), T0 + 61_000));
  }

  private static Request with(String cacheControl) {
    return Request.builder("GET", "http://h/x").header("Cache-Control", cacheControl).build();
  }

  @Test
  void aNotModifiedUpdatesTheHeadButNotTheBodysFraming() {
    Headers stored = Headers.of("Content-Length", "5", "Content-Encoding", "gzip", "ETag", "\"1\"", "Cache-Control", "max-age=1");
    Headers merged = CachePolicy.merged(stored, Headers.of("Cache-Control", "max-age=99", "Content-Length", "0", "X-New", "y"));
    assertEquals("max-age=99", merged.first("Cache-Control"));
    assertEquals("5", merged.first("Content-Length"));
    assertEquals("gzip", merged.first("Content-Encoding"));
    assertEquals("y", merged.first("X-New"));
    assertEquals("\"1\"", merged.first("ETag"));
  }

  @Test
  void malformedDirectivesCountAsAbsent() {
    CacheControl cc = CacheControl.parse(Headers.of("Cache-Control", "max-age=-5, max-age=abc, s-maxage=\"7\"", "Cache-Control", "No-Store"));
    assertEquals(-1, cc.maxAge());
    assertEquals(7, cc.sMaxAge());
    assertTrue(cc.noStore());
    assertTrue(CacheControl.parse(Headers.of("Pragma", "no-cache")).noCache());
  }

  // Found by CacheHeadersFuzzTest: "Vary: Accept-Lan6:00:00 GMT" was stored, and storing it threw
  // IllegalArgumentException out of the cache (a Vary element that is no field name cannot become a header name).
  @Test
  void aVaryListingSomethingOtherThanFieldNamesIsNotStored() {
    dev.strand.Request get = dev.strand.Request.builder("GET", "http://h/a").build();
    for (String vary : new String[] {"Accept-Lan6:00:00 GMT", "Accept, a b", "x(y)", "caf\u00e9"}) {
      dev.strand.Response r = dev.strand.Response.builder(200).header("Cache-Control", "max-age=60").header("Vary", vary)
          .request(get).build();
      assertFalse(CachePolicy.storable(get, r), vary);
    }
    dev.strand.Response fine = dev.strand.Response.builder(200).header("Cache-Control", "max-age=60")
        .header("Vary", "Accept-Encoding, ,Accept-Language").request(get).build();
    assertTrue(CachePolicy.storable(get, fine));
  }
}
