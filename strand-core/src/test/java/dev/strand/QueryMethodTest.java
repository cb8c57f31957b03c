package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** QUERY is an ordinary method with a body: nothing in the client treats it as GET. */
class QueryMethodTest {
  @Test
  void queryCarriesItsBodyAndContentType() throws Exception {
    MockTransport mock = MockTransport.of(r -> Response.builder(200)
        .json("{\"method\":\"" + r.method() + "\"}").build());
    try (Client client = Client.builder().transport(mock).baseUrl("http://h/api").build()) {
      Response sync = client.query("/search", RequestBody.json("{\"q\":\"strand\"}"));
      Response async = client.async().query("/search", RequestBody.json("{\"q\":\"strand\"}")).get();
      assertEquals("{\"method\":\"QUERY\"}", sync.text());
      assertEquals(sync.text(), async.text());
    }
    for (Request sent : mock.requests()) {
      assertEquals("QUERY", sent.method());
      assertEquals("http://h/api/search", sent.url().toString());
      assertEquals("application/json", sent.headers().first("Content-Type"));
      assertEquals("{\"q\":\"strand\"}", new String(sent.body().bufferedBytes(), StandardCharsets.UTF_8));
    }
    assertEquals(2, mock.requests().size());
  }

  @Test
  void queryFollowsA307WithItsBody() {
    MockTransport mock = MockTransport.of(r -> r.url().getPath().equals("/old")
        ? Response.builder(307).header("Location", "/new").build()
        : Response.builder(200).body(new String(r.body().bufferedBytes(), StandardCharsets.UTF_8)).build());
    try (Client client = Client.builder().transport(mock).followRedirects(true).build()) {
      Response r = client.query("http://h/old", RequestBody.of("find me"));
      assertEquals("find me", r.text());
      assertEquals("QUERY", r.request().method());
    }
  }
}
