package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** User information in URLs: Basic credentials for that origin, never on the wire as part of the URL. */
class UrlCredentialsTest {
  private static String basic(String userAndPassword) {
    return "Basic " + Base64.getEncoder().encodeToString(userAndPassword.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void userInfoBecomesBasicAuthAndLeavesTheUrl() {
    MockTransport mock = MockTransport.of(r -> Response.builder(200).build());
    try (Client client = Client.builder().transport(mock).build()) {
      Response r = client.get("http://us%40er:p%3Ass+w@h:8080/x?q=1");
      Request sent = mock.requests().get(0);
      assertEquals(basic("us@er:p:ss+w"), sent.headers().first("Authorization"));
      assertEquals("http://h:8080/x?q=1", sent.url().toString());
      assertNull(sent.url().getUserInfo());
      assertFalse(r.request().toString().contains("p%3Ass"));
    }
  }

  @Test
  void theRequestsOrTheClientsAuthWins() {
    MockTransport mock = MockTransport.of(r -> Response.builder(200).build());
    try (Client client = Client.builder().transport(mock).build()) {
      client.send(Request.builder("GET", "http://u:p@h/").header("Authorization", "Bearer t").build());
      assertEquals("Bearer t", mock.requests().get(0).headers().first("Authorization"));
    }
    MockTransport mock2 = MockTransport.of(r -> Response.builder(200).build());
    try (Client client = Client.builder().transport(mock2).auth(Auth.bearer("c")).build()) {
      client.get("http://u:p@h/");
      assertEquals("Bearer c", mock2.requests().get(0).headers().first("Authorization"));
      assertNull(mock2.requests().get(0).url().getUserInfo());
    }
  }

  @Test
  void aRedirectToAnotherOriginDoesNotCarryThem() {
    MockTransport mock = MockTransport.of(r -> r.url().getHost().equals("h")
        ? Response.builder(302).header("Location", r.url().getPath().equals("/same") ? "/landed" : "http://other/").build()
        : Response.builder(200).build());
    try (Client client = Client.builder().transport(mock).followRedirects(true).build()) {
      client.get("http://u:p@h/start");
      List<Request> sent = mock.requests();
      assertEquals(basic("u:p"), sent.get(0).headers().first("Authorization"));
      assertEquals("other", sent.get(1).url().getHost());
      assertFalse(sent.get(1).headers().contains("Authorization"));
    }
  }

  @Test
  void failuresDoNotPrintThePassword() {
    MockTransport mock = MockTransport.of(r -> {
      throw new ConnectException("refused by " + r, r);
    });
    try (Client client = Client.builder().transport(mock).build()) {
      ConnectException e = assertThrows(ConnectException.class, () -> client.get("http://u:secret@h/"));
      assertFalse(e.getMessage().contains("secret"), e.getMessage());
      assertFalse(String.valueOf(e.request()).contains("secret"));
      assertTrue(e.getMessage().contains("h/"), e.getMessage());
    }
  }
}
