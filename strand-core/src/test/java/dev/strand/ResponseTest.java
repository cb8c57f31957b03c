package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a read Response offers: raiseForStatus, text() in the right charset, json(). */
class ResponseTest {
  private static Response get(Response canned) {
    try (Client client = Client.builder().transport(MockTransport.of(r -> canned)).build()) {
      return client.get("http://h/thing");
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {200, 201, 204, 301, 304, 399})
  void raiseForStatusPassesBelow400(int status) {
    Response r = get(Response.builder(status).build());
    assertSame(r, r.raiseForStatus());
  }

  @ParameterizedTest
  @ValueSource(ints = {400, 404, 418, 499, 500, 503, 599})
  void raiseForStatusThrowsFrom400(int status) {
    Response r = get(Response.builder(status).body("details").build());
    HttpStatusException e = assertThrows(HttpStatusException.class, r::raiseForStatus);
    assertEquals(status, e.status());
    assertSame(r, e.response());
    assertEquals("details", e.response().text(), "the body is available on the exception");
    assertEquals("http://h/thing", e.request().url().toString());
    assertTrue(e.getMessage().contains(status < 500 ? "client error" : "server error"), e.getMessage());
  }

  @Test
  void textUsesTheContentTypeCharset() {
    byte[] latin1 = "café".getBytes(StandardCharsets.ISO_8859_1);
    assertEquals("café", get(Response.builder(200).header("Content-Type", "text/plain; charset=ISO-8859-1")
        .body(latin1).build()).text());
    assertEquals("café", get(Response.builder(200).header("Content-Type", "text/plain;charset=\"iso-8859-1\"")
        .body(latin1).build()).text());
    byte[] utf8 = "café".getBytes(StandardCharsets.UTF_8);
    assertEquals("café", get(Response.builder(200).body(utf8).build()).text(), "UTF-8 without a charset");
    assertEquals("café", get(Response.builder(200).header("Content-Type", "text/plain; charset=nonsense")
        .body(utf8).build()).text(), "UTF-8 for an unknown charset");
  }

  public record Widget(int id, String name, List<String> tags) {}

  @Test
  void jsonParsesWithJackson() {
    Response r = get(Response.builder(200).json("{\"id\": 42, \"name\": \"widget\", \"tags\": [\"a\"]}").build());
    assertEquals(new Widget(42, "widget", List.of("a")), r.json(Widget.class));
    assertEquals(42, r.json(Map.class).get("id"));
  }

  @Test
  void invalidJsonIsAProtocolException() {
    Response r = get(Response.builder(200).json("{not json").build());
    ProtocolException e = assertThrows(ProtocolException.class, () -> r.json(Widget.class));
    assertEquals("http://h/thing", e.request().url().toString());
  }

  @Test
  void responseKnowsItsRequestVersionAndElapsedTime() {
    Response r = get(Response.builder(200).version(Version.HTTP_1_1).build());
    assertEquals("GET", r.request().method());
    assertEquals(Version.HTTP_1_1, r.version());
    assertTrue(!r.elapsed().isNegative());
    assertEquals("OK", r.reason());
  }
}
