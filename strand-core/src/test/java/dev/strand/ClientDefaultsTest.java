package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What the client adds to a request before the transport sees it: URL, params, headers, timeout. */
class ClientDefaultsTest {
  private final MockTransport mock = MockTransport.of(r -> Response.builder(200).build());

  private static Request sent(Client.Builder builder, Request request) {
    MockTransport mock = MockTransport.of(r -> Response.builder(200).build());
    try (Client client = builder.transport(mock).build()) {
      client.send(request);
    }
    List<Request> requests = mock.requests();
    assertEquals(1, requests.size());
    return requests.get(0);
  }

  @ParameterizedTest(name = "base {0} + {1} -> {2}")
  @CsvSource({
      "http://h/api/,      users,               http://h/api/users",
      "http://h/api,       /users,              http://h/api/users",
      "http://h/api,       users?page=2,        http://h/api/users?page=2",
      "http://h:81,        /a/b,                http://h:81/a/b",
      "https://h/v1/,      /,                   https://h/v1/",
      "http://h/api,       http://other/x,      http://other/x",
      "http://h/api,       https://other:444/x, https://other:444/x",
  })
  void urlsResolveAgainstTheBaseUrl(String base, String url, String expected) {
    assertEquals(expected, sent(Client.builder().baseUrl(base), Request.get(url)).url().toString());
  }

  @ParameterizedTest(name = "{0} with default k=v -> {1}")
  @CsvSource({
      "http://h/p,           http://h/p?k=v",
      "http://h/p?a=1,       http://h/p?a=1&k=v",
      "http://h/p?k=mine,    http://h/p?k=mine",
      "http://h/p?kk=1,      http://h/p?kk=1&k=v",
      "http://h/p?k,         http://h/p?k",
  })
  void defaultParamsAreAddedUnlessTheRequestHasThem(String url, String expected) {
    assertEquals(expected, sent(Client.builder().param("k", "v"), Request.get(url)).url().toString());
  }

  @Test
  void severalDefaultParamsAreEncoded() {
    Request r = sent(Client.builder().param("a b", "1&2").param("c", "é"), Request.get("http://h/?c=0"));
    assertEquals("c=0&a%20b=1%262", r.url().getRawQuery());
  }

  @Test
  void relativeUrlWithoutBaseUrlFailsNamingTheUrl() {
    try (Client client = Client.builder().transport(mock).build()) {
      InvalidUrlException e = assertThrows(InvalidUrlException.class, () -> client.get("/users"));
      assertEquals("/users", e.url());
      assertTrue(e.getMessage().contains("/users"), e.getMessage());
    }
    assertTrue(mock.requests().isEmpty());
  }

  @Test
  void defaultHeadersAreAddedUnlessTheRequestSetsTheName() {
    Request r = sent(Client.builder().header("X-A", "default").header("X-B", "1").header("X-B", "2"),
        Request.builder("GET", "http://h/").header("x-a", "mine").build());
    assertEquals(List.of("mine"), r.headers().all("X-A"));
    assertEquals(List.of("1", "2"), r.headers().all("X-B"));
  }

  @Test
  void userAgentDefaultsToStrandAndCanBeChangedOrRemoved() {
    assertEquals("strand/" + StrandVersion.VERSION,
        sent(Client.builder(), Request.get("http://h/")).headers().first("User-Agent"));
    assertEquals("mine", sent(Client.builder(),
        Request.builder("GET", "http://h/").header("User-Agent", "mine").build()).headers().first("User-Agent"));
    assertNull(sent(Client.builder().userAgent(null), Request.get("http://h/")).headers().first("User-Agent"));
  }

  @Test
  void acceptEncodingOnlyWhenDecompressing() {
    String ae = sent(Client.builder(), Request.get("http://h/")).headers().first("Accept-Encoding");
    assertTrue(ae.startsWith("gzip, deflate"), ae);
    assertTrue(ae.contains("br"), "brotli4j is on the test class path, so br is advertised: " + ae);
    assertNull(sent(Client.builder().decompress(false), Request.get("http://h/")).headers().first("Accept-Encoding"));
    assertEquals("identity", sent(Client.builder(),
        Request.builder("GET", "http://h/").header("Accept-Encoding", "identity").build())
        .headers().first("Accept-Encoding"));
  }

  @Test
  void contentTypeComesFromTheBodyUnlessSet() {
    assertEquals("application/json",
        sent(Client.builder(), Request.builder("POST", "http://h/").body(RequestBody.json("{}")).build())
            .headers().first("Content-Type"));
    assertEquals(List.of("text/csv"), sent(Client.builder(), Request.builder("POST", "http://h/")
        .header("Content-Type", "text/csv").body(RequestBody.json("{}")).build()).headers().all("Content-Type"));
    assertNull(sent(Client.builder(), Request.builder("POST", "http://h/").body(new byte[] {1}).build())
        .headers().first("Content-Type"));
  }

  @Test
  void timeoutIsTheRequestsOwnElseTheClients() {
    Timeout mine = Timeout.of(Duration.ofMillis(123));
    Timeout clients = Timeout.of(Duration.ofSeconds(9));
    assertSame(mine, sent(Client.builder().timeout(clients),
        Request.builder("GET", "http://h/").timeout(mine).build()).timeout());
    assertSame(clients, sent(Client.builder().timeout(clients), Request.get("http://h/")).timeout());
    assertSame(Timeout.DEFAULT, sent(Client.builder(), Request.get("http://h/")).timeout());
  }

  @Test
  void requestThatNeedsNothingIsSentAsIs() {
    Request complete = Request.builder("GET", "http://h/").header("Accept-Encoding", "gzip")
        .timeout(Timeout.DEFAULT).build();
    assertSame(complete, sent(Client.builder().userAgent(null), complete));
  }

  @Test
  void manyDistinctUrlsResolveCorrectlyPastTheResolutionCache() {
    MockTransport echo = MockTransport.of(r -> Response.builder(200).body(r.url().toString()).build());
    try (Client client = Client.builder().transport(echo).baseUrl("http://h/api").param("k", "v").build()) {
      for (int i = 0; i < 600; i++) {
        assertEquals("http://h/api/items/" + i + "?k=v", client.get("/items/" + i).text());
        assertEquals("http://h/api/items/0?k=v", client.get("items/0").text());
      }
    }
  }
}
