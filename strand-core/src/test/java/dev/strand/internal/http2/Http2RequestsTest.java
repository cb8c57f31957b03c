package dev.strand.internal.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.strand.Request;
import dev.strand.internal.pool.Origin;
import io.netty.handler.codec.http2.Http2Headers;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Request heads as HTTP/2 header fields: names in lower case however spelled, connection fields left out. */
class Http2RequestsTest {
  static final Origin ORIGIN = new Origin("http", "example.test", 8080);

  static Http2Headers headers(Request r) {
    return Http2Requests.headers(r, ORIGIN, -2);
  }

  @Test
  void namesAreLowerCaseHoweverSpelled() {
    Request r = Request.builder("GET", "http://example.test:8080/a")
        .header("User-Agent", "one")
        .header("user-agent", "two")
        .header("USER-AGENT", "three")
        .header("X-Trace-Id", "t")
        .header("Content-Type", "text/plain")
        .build();
    Http2Headers h = headers(r);
    assertEquals(List.of("one", "two", "three"), h.getAll("user-agent").stream().map(CharSequence::toString).toList());
    assertEquals("t", h.get("x-trace-id").toString());
    assertEquals("text/plain", h.get("content-type").toString());
    h.forEach(e -> assertEquals(e.getKey().toString().toLowerCase(java.util.Locale.ROOT), e.getKey().toString()));
  }

  @Test
  void connectionFieldsAreLeftOutAndHostBecomesTheAuthority() {
    Request r = Request.builder("GET", "http://example.test:8080/a")
        .header("Host", "other.test")
        .header("Connection", "keep-alive")
        .header("Keep-Alive", "timeout=5")
        .header("TE", "gzip")
        .build();
    Http2Headers h = headers(r);
    assertEquals("other.test", h.authority().toString());
    assertNull(h.get("host"));
    assertNull(h.get("connection"));
    assertNull(h.get("keep-alive"));
    assertNull(h.get("te"), "TE is allowed only as \"trailers\"");
    assertEquals("trailers", headers(Request.builder("GET", "http://example.test:8080/").header("TE", "trailers").build())
        .get("te").toString());
  }

  @Test
  void theTargetIsThePathAndQueryWithWhatTheWireForbidsEscaped() throws Exception {
    assertEquals("/a/b", Http2Requests.target(URI.create("http://example.test/a/b")));
    assertEquals("/", Http2Requests.target(URI.create("http://example.test")));
    assertEquals("/a?x=1", Http2Requests.target(URI.create("http://example.test/a?x=1")));
    assertEquals("/%C3%A9t%C3%A9?q=%C3%A9", Http2Requests.target(new URI("http", "example.test", "/été", "q=é", null)));
    assertEquals("/%C3%A9t%C3%A9", Http2Requests.target(new URI("http", "example.test", "/été", null)));
  }
}
