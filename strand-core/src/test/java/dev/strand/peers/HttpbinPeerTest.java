package dev.strand.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.strand.Auth;
import dev.strand.Client;
import dev.strand.CookieJar;
import dev.strand.Response;
import dev.strand.ResponseHead;
import dev.strand.testkit.NettyLeakDetectorExtension;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Brotli, Digest and Basic auth and cookies against python3-httpbin (bin/test starts it under
 * gunicorn and sets {@code STRAND_HTTPBIN_URL}). Skipped when no httpbin is configured, except under
 * bin/test or on CI ({@code STRAND_NGINX_URL} or {@code CI} set), where that is an error.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
@Tag("peer")
class HttpbinPeerTest {
  private static String base;

  @BeforeAll
  static void peer() {
    base = System.getenv("STRAND_HTTPBIN_URL");
    if (base == null || base.isBlank()) {
      if ("true".equals(System.getenv("CI")) || System.getenv("STRAND_NGINX_URL") != null) {
        fail("STRAND_HTTPBIN_URL is not set: run the tests through bin/test, which starts httpbin");
      }
      Assumptions.abort("STRAND_HTTPBIN_URL is not set: no httpbin to test against (bin/test starts one)");
    }
  }

  private static Client.Builder client() {
    return Client.builder().baseUrl(base);
  }

  @Test
  void brotliIsAskedForAndDecoded() {
    try (Client client = client().build()) {
      Response r = client.get("/brotli");
      assertEquals(200, r.status());
      assertFalse(r.headers().contains("Content-Encoding"));
      assertTrue(r.text().contains("\"brotli\":true") || r.text().contains("\"brotli\": true"), r.text());
      assertTrue(r.text().contains("br"), "the server saw br in Accept-Encoding: " + r.text());
    }
  }

  @Test
  void digestMd5AndSha256() {
    for (String algorithm : List.of("MD5", "SHA-256")) {
      try (Client client = client().auth(Auth.digest("user", "passwd")).build()) {
        Response r = client.get("/digest-auth/auth/user/passwd/" + algorithm);
        assertEquals(200, r.status(), algorithm + ": " + r.text());
        assertTrue(r.text().contains("\"authenticated\""), r.text());
        assertEquals(200, client.get("/digest-auth/auth/user/passwd/" + algorithm).status(), "nonce reused, nc=2");
      }
    }
  }

  @Test
  void digestAnswersAStaleNonce() {
    List<ResponseHead> heads = new CopyOnWriteArrayList<>();
    try (Client client = client().auth(Auth.digest("user", "passwd")).onResponse(heads::add).build()) {
      assertEquals(200, client.get("/digest-auth/auth/user/passwd/MD5/1").status());
      assertEquals(200, client.get("/digest-auth/auth/user/passwd/MD5/1").status());
    }
    assertTrue(heads.stream().anyMatch(h -> h.status() == 401
        && String.valueOf(h.headers().first("WWW-Authenticate")).toLowerCase().contains("stale=true")),
        "httpbin called the nonce stale after one use: " + heads);
  }

  @Test
  void digestWithAWrongPasswordIs401() {
    try (Client client = client().auth(Auth.digest("user", "wrong")).build()) {
      assertEquals(401, client.get("/digest-auth/auth/user/passwd/MD5").status());
    }
  }

  @Test
  void urlCredentialsAreBasicAuth() {
    String withUser = base.replace("://", "://user:pw@");
    try (Client client = Client.create()) {
      Response r = client.get(withUser + "/basic-auth/user/pw");
      assertEquals(200, r.status(), r.text());
      assertFalse(r.request().url().toString().contains("pw@"));
      assertEquals(401, client.get(base.replace("://", "://user:bad@") + "/basic-auth/user/pw").status());
    }
  }

  @Test
  void urlCredentialsDoNotFollowARedirectToAnotherOrigin() {
    // 127.0.0.1 and localhost are different origins of the same server.
    String other = base.replace("127.0.0.1", "localhost");
    Assumptions.assumeFalse(other.equals(base), "httpbin is not on 127.0.0.1");
    try (Client client = Client.builder().followRedirects(true).build()) {
      Response r = client.get(base.replace("://", "://user:pw@") + "/redirect-to?url=" + other + "/headers");
      assertEquals(200, r.status());
      assertFalse(r.text().contains("Authorization"), r.text());
      Response same = client.get(base.replace("://", "://user:pw@") + "/redirect-to?url=/headers");
      assertTrue(same.text().contains("Authorization"), "same origin keeps them: " + same.text());
    }
  }

  @Test
  void cookiesAreStoredAndSentBack() {
    CookieJar jar = CookieJar.create();
    try (Client client = client().cookieJar(jar).followRedirects(true).build()) {
      Response r = client.get("/cookies/set?flavour=oat&n=1");
      assertTrue(r.text().contains("\"flavour\": \"oat\"") || r.text().contains("\"flavour\":\"oat\""), r.text());
      assertEquals(2, jar.cookies().size());
      jar.remove("n", "127.0.0.1", "/");
      String cookies = client.get("/cookies").text();
      assertTrue(cookies.contains("oat") && !cookies.contains("\"n\""), cookies);
    }
  }
}
