package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Auth.digest through the client: challenge, nonce reuse with nc counting, stale nonces, redirects. */
class DigestAuthFlowTest {
  private static final Pattern NC = Pattern.compile("nc=([0-9a-f]{8})");
  private static final Pattern NONCE = Pattern.compile("nonce=\"([^\"]*)\"");

  /** A server that accepts any Digest answer for its current nonce and makes nonces stale on demand. */
  private static final class Server {
    final AtomicInteger nonce = new AtomicInteger(1);

    Response handle(Request r) {
      String auth = r.headers().first("Authorization");
      String current = "n" + nonce.get();
      if (auth == null || !auth.startsWith("Digest ")) {
        return challenge(current, false);
      }
      Matcher m = NONCE.matcher(auth);
      if (!m.find() || !m.group(1).equals(current)) {
        return challenge(current, true);
      }
      return Response.builder(200).body(auth).build();
    }

    Response challenge(String nonce, boolean stale) {
      return Response.builder(401).header("WWW-Authenticate", "Digest realm=\"r\", qop=\"auth\", algorithm=SHA-256, "
          + "nonce=\"" + nonce + "\"" + (stale ? ", stale=true" : "")).build();
    }
  }

  private static String nc(String authorization) {
    Matcher m = NC.matcher(authorization);
    assertTrue(m.find(), authorization);
    return m.group(1);
  }

  @Test
  void challengeThenNonceReuseThenStale() {
    Server server = new Server();
    MockTransport mock = MockTransport.of(server::handle);
    try (Client client = Client.builder().transport(mock).auth(Auth.digest("u", "p")).build()) {
      Response first = client.get("http://h/a");
      assertEquals(200, first.status());
      assertEquals("00000001", nc(first.text()));
      assertEquals(2, mock.requests().size()); // the 401 and its answer

      Response second = client.get("http://h/b?x=1");
      assertEquals("00000002", nc(second.text()));
      assertTrue(second.text().contains("uri=\"/b?x=1\""), second.text());
      assertEquals(3, mock.requests().size()); // sent with credentials at once

      server.nonce.incrementAndGet();
      Response third = client.get("http://h/c");
      assertEquals(200, third.status());
      assertEquals("00000001", nc(third.text()), "a new nonce counts from 1");
      assertTrue(third.text().contains("nonce=\"n2\""));
      assertEquals(5, mock.requests().size());
    }
  }

  @Test
  void refusedCredentialsGiveThe401Back() {
    MockTransport mock = MockTransport.of(r -> Response.builder(401)
        .header("WWW-Authenticate", "Digest realm=\"r\", nonce=\"same\", qop=\"auth\"").build());
    try (Client client = Client.builder().transport(mock).auth(Auth.digest("u", "wrong")).build()) {
      assertEquals(401, client.get("http://h/").status());
      assertEquals(2, mock.requests().size());
      assertEquals(401, client.get("http://h/").status());
      assertEquals(3, mock.requests().size(), "the same nonce refused again is not retried");
    }
  }

  @Test
  void credentialsDoNotFollowARedirectToAnotherOrigin() {
    MockTransport mock = MockTransport.of(r -> {
      if (r.url().getHost().equals("other")) {
        return Response.builder(401).header("WWW-Authenticate", "Digest realm=\"evil\", nonce=\"x\", qop=auth").build();
      }
      String auth = r.headers().first("Authorization");
      return auth == null
          ? Response.builder(401).header("WWW-Authenticate", "Digest realm=\"r\", nonce=\"n\", qop=auth").build()
          : Response.builder(302).header("Location", "http://other/next").build();
    });
    try (Client client = Client.builder().transport(mock).auth(Auth.digest("u", "p")).followRedirects(true).build()) {
      Response r = client.get("http://h/start");
      assertEquals(401, r.status(), "the other origin's challenge is not answered");
      List<Request> sent = mock.requests();
      assertEquals(3, sent.size());
      assertFalse(sent.get(2).headers().contains("Authorization"));
      assertNull(sent.get(2).headers().first("Authorization"));
    }
  }
}
