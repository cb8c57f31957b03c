package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Basic, bearer and a custom challenge-response Auth. */
class AuthTest {
  private final MockTransport echoAuth = MockTransport.of(r ->
      Response.builder(200).body(String.valueOf(r.headers().first("Authorization"))).build());

  @Test
  void basicEncodesUserAndPasswordInUtf8() {
    try (Client client = Client.builder().transport(echoAuth).auth(Auth.basic("us€r", "p:ss")).build()) {
      String expected = "Basic " + Base64.getEncoder().encodeToString("us€r:p:ss".getBytes(StandardCharsets.UTF_8));
      assertEquals(expected, client.get("http://h/").text());
    }
    assertThrows(IllegalArgumentException.class, () -> Auth.basic("a:b", "c"));
  }

  @Test
  void bearerReplacesAnExistingAuthorization() {
    try (Client client = Client.builder().transport(echoAuth).auth(Auth.bearer("tok")).build()) {
      assertEquals("Bearer tok", client.send(Request.builder("GET", "http://h/")
          .header("Authorization", "Basic old").build()).text());
    }
  }

  /** A digest-like scheme: the server's 401 carries a nonce that the next request must echo. */
  static final class NonceAuth implements Auth {
    final List<Request> challenged = new ArrayList<>();

    @Override
    public Request apply(Request request) {
      return request.toBuilder().setHeader("Authorization", "Nonce none").build();
    }

    @Override
    public Request onChallenge(Request request, ResponseHead response) {
      challenged.add(request);
      String nonce = response.headers().first("WWW-Authenticate");
      return nonce == null ? null : request.toBuilder().setHeader("Authorization", "Nonce " + nonce).build();
    }
  }

  @Test
  void customChallengeIsAnsweredOnce() {
    MockTransport server = MockTransport.of(r -> "Nonce n-42".equals(r.headers().first("Authorization"))
        ? Response.builder(200).body("welcome").build()
        : Response.builder(401).header("WWW-Authenticate", "n-42").body("who are you").build());
    NonceAuth auth = new NonceAuth();
    try (Client client = Client.builder().transport(server).auth(auth).build()) {
      Response r = client.get("http://h/private");
      assertEquals(200, r.status());
      assertEquals("welcome", r.text());
      assertEquals(1, auth.challenged.size());
      assertEquals("Nonce none", auth.challenged.get(0).headers().first("Authorization"));
    }
    assertEquals(2, server.requests().size());
  }

  @Test
  void aSecond401IsReturnedNotRetriedForever() {
    MockTransport server = MockTransport.of(r -> Response.builder(401).header("WWW-Authenticate", "again").build());
    NonceAuth auth = new NonceAuth();
    try (Client client = Client.builder().transport(server).auth(auth).build()) {
      assertEquals(401, client.get("http://h/").status());
    }
    assertEquals(2, server.requests().size());
    assertEquals(1, auth.challenged.size());
  }

  @Test
  void withoutAChallengeAnswerThe401IsReturned() {
    MockTransport server = MockTransport.of(r -> Response.builder(401).build());
    try (Client client = Client.builder().transport(server).auth(Auth.basic("u", "p")).build()) {
      Response r = client.get("http://h/");
      assertEquals(401, r.status());
      HttpStatusException e = assertThrows(HttpStatusException.class, r::raiseForStatus);
      assertSame(r, e.response());
    }
    assertEquals(1, server.requests().size());
  }

  @Test
  void noAuthSendsNoAuthorization() {
    try (Client client = Client.builder().transport(echoAuth).build()) {
      assertEquals("null", client.get("http://h/").text());
    }
    assertNull(echoAuth.requests().get(0).headers().first("Authorization"));
  }
}
