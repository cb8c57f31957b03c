package dev.strand.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.Response;
import java.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The redirect policy as a pure function: no transport involved. */
class RedirectsTest {
  private static Request post(String url) {
    return Request.builder("POST", url)
        .header("Content-Type", "application/json")
        .header("Content-Length", "2")
        .header("Authorization", "Bearer secret")
        .header("Cookie", "a=1")
        .header("Proxy-Authorization", "Basic x")
        .header("X-Keep", "yes")
        .body(RequestBody.json("{}"))
        .build();
  }

  private static Response redirect(int status, String location) {
    return Response.builder(status).header("Location", location).build();
  }

  @ParameterizedTest
  @ValueSource(ints = {301, 302, 303})
  void seeOtherStylesBecomeGetWithoutBody(int status) {
    Request next = Redirects.next(post("http://h/a"), redirect(status, "/b"), false);
    assertEquals("GET", next.method());
    assertNull(next.body());
    assertFalse(next.headers().contains("Content-Type"));
    assertFalse(next.headers().contains("Content-Length"));
    assertEquals("http://h/b", next.url().toString());
    assertEquals("yes", next.headers().first("X-Keep"));
    assertEquals("Bearer secret", next.headers().first("Authorization"), "same origin keeps credentials");
  }

  @ParameterizedTest
  @ValueSource(ints = {301, 302, 303, 307, 308})
  void headStaysHead(int status) {
    Request next = Redirects.next(Request.builder("HEAD", "http://h/a").build(), redirect(status, "/b"), false);
    assertEquals("HEAD", next.method());
  }

  @ParameterizedTest
  @ValueSource(ints = {307, 308})
  void temporaryAndPermanentKeepMethodAndBody(int status) {
    Request original = post("http://h/a");
    Request next = Redirects.next(original, redirect(status, "/b"), false);
    assertEquals("POST", next.method());
    assertSame(original.body(), next.body());
    assertEquals("application/json", next.headers().first("Content-Type"));
  }

  @ParameterizedTest
  @ValueSource(ints = {307, 308})
  void oneShotBodyCannotBeReplayed(int status) {
    Request original = Request.builder("PUT", "http://h/a")
        .body(RequestBody.ofInputStream(new ByteArrayInputStream(new byte[3]), "application/octet-stream"))
        .build();
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> Redirects.next(original, redirect(status, "/b"), false));
    assertTrue(e.getMessage().contains("one-shot"), e.getMessage());
    assertSame(original, e.request());
  }

  @Test
  void oneShotBodyIsFineWhenTheRedirectDropsIt() {
    Request original = Request.builder("POST", "http://h/a")
        .body(RequestBody.ofInputStream(new ByteArrayInputStream(new byte[3]), null))
        .build();
    assertEquals("GET", Redirects.next(original, redirect(303, "/b"), false).method());
  }

  @ParameterizedTest
  @ValueSource(strings = {"http://other/b", "https://h/b", "http://h:8080/b"})
  void crossOriginDropsCredentials(String location) {
    Request next = Redirects.next(post("http://h/a"), redirect(307, location), false);
    assertEquals(location, next.url().toString());
    assertFalse(next.headers().contains("Authorization"));
    assertFalse(next.headers().contains("Cookie"));
    assertFalse(next.headers().contains("Proxy-Authorization"));
    assertEquals("yes", next.headers().first("X-Keep"));
  }

  @Test
  void explicitDefaultPortIsTheSameOrigin() {
    Request next = Redirects.next(post("http://h/a"), redirect(307, "http://H:80/b"), false);
    assertEquals("Bearer secret", next.headers().first("Authorization"));
  }

  @Test
  void httpsToHttpIsRefusedUnlessAllowed() {
    Request secure = Request.get("https://h/a");
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> Redirects.next(secure, redirect(302, "http://h/b"), false));
    assertTrue(e.getMessage().contains("https to http"), e.getMessage());
    assertEquals("http://h/b", Redirects.next(secure, redirect(302, "http://h/b"), true).url().toString());
  }

  @Test
  void relativeLocationsResolveAgainstTheCurrentUrl() {
    Request r = Request.get("http://h/dir/page?q=1");
    assertEquals("http://h/dir/other", Redirects.next(r, redirect(302, "other"), false).url().toString());
    assertEquals("http://h/top", Redirects.next(r, redirect(302, "/top"), false).url().toString());
    assertEquals("http://h/dir/page?x=2", Redirects.next(r, redirect(302, "?x=2"), false).url().toString());
    assertEquals("http://x/y", Redirects.next(r, redirect(302, "//x/y"), false).url().toString());
    assertEquals("http://h/a", Redirects.next(Request.get("http://h"), redirect(302, "a"), false).url().toString());
  }

  @Test
  void rawSpacesAndUtf8InLocationAreEncoded() {
    Request next = Redirects.next(Request.get("http://h/"), redirect(302, "/a b/é"), false);
    assertEquals("/a%20b/%C3%A9", next.url().getRawPath());
  }

  @Test
  void notRedirectsGiveNull() {
    Request r = Request.get("http://h/");
    assertNull(Redirects.next(r, Response.builder(200).build(), false));
    assertNull(Redirects.next(r, redirect(304, "/b"), false));
    assertNull(Redirects.next(r, redirect(300, "/b"), false));
    assertNull(Redirects.next(r, Response.builder(302).build(), false), "no Location");
  }

  @Test
  void nonHttpLocationIsRefused() {
    assertThrows(ProtocolException.class,
        () -> Redirects.next(Request.get("http://h/"), redirect(302, "ftp://h/file"), false));
  }
}
