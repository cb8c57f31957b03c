package dev.strand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The client drives the redirect policy: hops, limits, history, and what each hop sends. */
class RedirectFollowingTest {
  /** /redirect/N answers 302 to /redirect/N-1, /redirect/0 answers 200 with the method. */
  private static final Function<Request, Response> CHAIN = r -> {
    String path = r.url().getPath();
    if (path.startsWith("/redirect/")) {
      int n = Integer.parseInt(path.substring("/redirect/".length()));
      if (n > 0) {
        return Response.builder(302).header("Location", "/redirect/" + (n - 1)).body("hop " + n).build();
      }
    }
    return Response.builder(200).body("done by " + r.method()).build();
  };

  private static Client client(MockTransport mock, int max) {
    return Client.builder().transport(mock).followRedirects(true).maxRedirects(max).build();
  }

  @Test
  void followsAChainAndKeepsTheHistory() {
    MockTransport mock = MockTransport.of(CHAIN);
    try (Client client = client(mock, 20)) {
      Response r = client.get("http://h/redirect/3");
      assertEquals(200, r.status());
      assertEquals("done by GET", r.text());
      assertEquals("http://h/redirect/0", r.request().url().toString(), "the final hop's request");
      List<Response> history = r.history();
      assertEquals(3, history.size());
      assertEquals("http://h/redirect/3", history.get(0).request().url().toString());
      assertEquals(302, history.get(0).status());
      assertEquals("hop 3", history.get(0).text(), "small redirect bodies are kept");
      assertEquals("hop 1", history.get(2).text());
      assertTrue(history.get(0).history().isEmpty());
    }
    assertEquals(4, mock.requests().size());
  }

  @Test
  void maxRedirectsIsAllowedButNotOneMore() {
    try (Client client = client(MockTransport.of(CHAIN), 3)) {
      assertEquals(3, client.get("http://h/redirect/3").history().size());
      TooManyRedirectsException e = assertThrows(TooManyRedirectsException.class,
          () -> client.get("http://h/redirect/4"));
      assertTrue(e.getMessage().contains("more than 3 redirects"), e.getMessage());
      assertEquals("http://h/redirect/1", e.request().url().toString());
    }
    try (Client none = client(MockTransport.of(CHAIN), 0)) {
      assertThrows(TooManyRedirectsException.class, () -> none.get("http://h/redirect/1"));
    }
  }

  @Test
  void withoutFollowRedirectsThe3xxIsReturned() {
    MockTransport mock = MockTransport.of(CHAIN);
    try (Client client = Client.builder().transport(mock).build()) {
      Response r = client.get("http://h/redirect/2");
      assertEquals(302, r.status());
      assertTrue(r.isRedirect());
      assertEquals("/redirect/1", r.headers().first("Location"));
      assertTrue(r.history().isEmpty());
    }
    assertEquals(1, mock.requests().size());
  }

  @Test
  void postBecomesGetOn303ButStaysPostOn307() {
    MockTransport mock = MockTransport.of(r -> switch (r.url().getPath()) {
      case "/see-other" -> Response.builder(303).header("Location", "/done").build();
      case "/temporary" -> Response.builder(307).header("Location", "/done").build();
      default -> Response.builder(200).body(r.method() + " " + (r.body() == null ? "no body"
          : new String(r.body().bufferedBytes()))).build();
    });
    try (Client client = client(mock, 5)) {
      assertEquals("GET no body", client.post("http://h/see-other", RequestBody.of("data")).text());
      assertEquals("POST data", client.post("http://h/temporary", RequestBody.of("data")).text());
    }
    Request afterSeeOther = mock.requests().get(1);
    assertNull(afterSeeOther.headers().first("Content-Type"));
  }

  @Test
  void oneShotBodyOn307FailsClearly() {
    MockTransport mock = MockTransport.of(r -> r.url().getPath().equals("/a")
        ? Response.builder(307).header("Location", "/b").build() : Response.builder(200).build());
    try (Client client = client(mock, 5)) {
      ProtocolException e = assertThrows(ProtocolException.class, () -> client.post("http://h/a",
          RequestBody.ofInputStream(new ByteArrayInputStream(new byte[4]), "application/octet-stream")));
      assertTrue(e.getMessage().contains("307"), e.getMessage());
    }
    assertEquals(1, mock.requests().size());
  }

  @Test
  void crossOriginHopDropsCredentialsSameOriginKeepsThem() {
    MockTransport mock = MockTransport.of(r -> switch (r.url().getHost() + r.url().getPath()) {
      case "a/start" -> Response.builder(302).header("Location", "/same").build();
      case "a/same" -> Response.builder(302).header("Location", "http://b/other").build();
      default -> Response.builder(200).build();
    });
    try (Client client = Client.builder().transport(mock).followRedirects(true).auth(Auth.bearer("t0k")).build()) {
      client.send(Request.builder("GET", "http://a/start").header("Cookie", "mine=1").build());
    }
    List<Request> sent = mock.requests();
    assertEquals(3, sent.size());
    assertEquals("Bearer t0k", sent.get(1).headers().first("Authorization"));
    assertEquals("mine=1", sent.get(1).headers().first("Cookie"));
    assertFalse(sent.get(2).headers().contains("Authorization"), "credentials must not leak to another origin");
    assertFalse(sent.get(2).headers().contains("Cookie"));
  }

  @Test
  void httpsToHttpIsRefusedByDefault() {
    Function<Request, Response> downgrade = r -> r.url().getScheme().equals("https")
        ? Response.builder(301).header("Location", "http://h/plain").build()
        : Response.builder(200).body("plain").build();
    try (Client client = client(MockTransport.of(downgrade), 5)) {
      ProtocolException e = assertThrows(ProtocolException.class, () -> client.get("https://h/secure"));
      assertTrue(e.getMessage().contains("https to http"), e.getMessage());
    }
    try (Client client = Client.builder().transport(MockTransport.of(downgrade)).followRedirects(true)
        .allowHttpsToHttpRedirect(true).build()) {
      assertEquals("plain", client.get("https://h/secure").text());
    }
  }

  @Test
  void redirectResponsesAreDecodedAndTheirCookiesKept() {
    MockTransport mock = MockTransport.of(r -> r.url().getPath().equals("/set")
        ? Response.builder(302).header("Location", "/check").header("Set-Cookie", "k=v").build()
        : Response.builder(200).body(String.valueOf(r.headers().first("Cookie"))).build());
    try (Client client = client(mock, 5)) {
      assertEquals("k=v", client.get("http://h/set").text());
    }
  }

  @Test
  void largeRedirectBodiesAreNotKept() {
    byte[] big = new byte[200_000];
    MockTransport mock = MockTransport.of(r -> r.url().getPath().equals("/big")
        ? Response.builder(302).header("Location", "/ok").body(big).build() : Response.builder(200).build());
    try (Client client = client(mock, 5)) {
      Response r = client.get("http://h/big");
      assertArrayEquals(new byte[0], r.history().get(0).bytes());
      assertEquals(302, r.history().get(0).status());
    }
  }
}
