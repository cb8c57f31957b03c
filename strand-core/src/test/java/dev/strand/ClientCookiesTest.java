package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The client keeps cookies per client and sends them back; the jar's own rules are in CookieJarTest. */
class ClientCookiesTest {
  private final MockTransport mock = MockTransport.of(r -> switch (r.url().getPath()) {
    case "/login" -> Response.builder(200).header("Set-Cookie", "sid=abc; Path=/; HttpOnly")
        .header("Set-Cookie", "theme=dark").build();
    case "/logout" -> Response.builder(200).header("Set-Cookie", "sid=; Max-Age=0; Path=/").build();
    default -> Response.builder(200).body(String.valueOf(r.headers().first("Cookie"))).build();
  });

  @Test
  void cookiesAreStoredSentBackAndDeleted() {
    try (Client client = Client.builder().transport(mock).baseUrl("http://shop.example").build()) {
      assertEquals("null", client.get("/cart").text());
      client.get("/login");
      assertEquals("sid=abc; theme=dark", client.get("/cart").text());
      List<Cookie> cookies = client.cookies();
      assertEquals(2, cookies.size());
      Cookie sid = cookies.get(0);
      assertEquals(Cookie.builder("sid", "abc").domain("shop.example").httpOnly(true).build(), sid);
      client.get("/logout");
      assertEquals("theme=dark", client.get("/cart").text());
      assertEquals(1, client.cookies().size());
    }
  }

  @Test
  void cookiesAreScopedToTheirHost() {
    try (Client client = Client.builder().transport(mock).build()) {
      client.get("http://a.example/login");
      assertEquals("null", client.get("http://b.example/cart").text());
      assertEquals("sid=abc; theme=dark", client.get("http://a.example/cart").text());
    }
  }

  @Test
  void eachClientHasItsOwnJar() {
    try (Client one = Client.builder().transport(mock).build();
        Client two = Client.builder().transport(mock).build()) {
      one.get("http://h/login");
      assertEquals("null", two.get("http://h/cart").text());
      assertTrue(two.cookies().isEmpty());
    }
  }

  @Test
  void disabledCookiesAreNeitherKeptNorSent() {
    try (Client client = Client.builder().transport(mock).cookies(false).build()) {
      client.get("http://h/login");
      assertEquals("null", client.get("http://h/cart").text());
      assertTrue(client.cookies().isEmpty());
    }
  }

  @Test
  void anExplicitCookieHeaderIsSentAsIs() {
    try (Client client = Client.builder().transport(mock).build()) {
      client.get("http://h/login");
      Response r = client.send(Request.builder("GET", "http://h/cart").header("Cookie", "mine=1").build());
      assertEquals("mine=1", r.text());
    }
    assertNull(mock.requests().get(0).headers().first("Cookie"));
  }
}
