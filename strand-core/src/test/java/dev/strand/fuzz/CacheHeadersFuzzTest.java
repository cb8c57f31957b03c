package dev.strand.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.strand.Headers;
import dev.strand.Request;
import dev.strand.internal.cache.CacheFuzzEntryPoints;

/**
 * Response heads as the HTTP cache reads them: Cache-Control, Vary, Age, Date, Expires, Last-Modified and ETag.
 * Input lines are "Name: value" response fields; lines after an empty one are the request's fields.
 */
class CacheHeadersFuzzTest {
  private static final long NOW = 1_760_000_000_000L;

  @FuzzTest
  void responseHead(byte[] head) {
    Headers.Builder response = Headers.builder();
    Headers.Builder request = Headers.builder();
    Headers.Builder into = response;
    for (String line : Fuzzing.latin1(head).split("\r?\n", -1)) {
      if (line.isEmpty()) {
        into = request;
        continue;
      }
      int colon = line.indexOf(':');
      if (colon > 0) {
        try {
          into.add(line.substring(0, colon), line.substring(colon + 1).strip());
        } catch (IllegalArgumentException notAField) {
          // a name or value Netty's decoder would not hand over either
        }
      }
    }
    Headers responseHeaders = response.build();
    Request req = Request.builder("GET", "http://example.test/r").headers(request.build()).build();
    CacheFuzzEntryPoints.cacheControl(responseHeaders);
    CacheFuzzEntryPoints.cacheControl(req.headers());
    CacheFuzzEntryPoints.freshness(req, responseHeaders, NOW);
  }
}
