package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The built-in {@link ProxyAuthenticator}s as pure functions of the challenges, and the {@link Proxy} withers. */
class ProxyAuthenticatorTest {
  private static final URI PROXY = URI.create("http://proxy:3128");
  private static final List<String> DIGEST = List.of("Digest realm=\"r\", nonce=\"n1\", qop=\"auth\"");

  @Test
  void basicIsPreemptiveAndAnswersOnlyBasicChallenges() {
    ProxyAuthenticator basic = ProxyAuthenticator.basic("u", "p");
    assertEquals("Basic dTpw", basic.authorize(PROXY, "CONNECT", "h:443", List.of()));
    assertEquals("Basic dTpw", basic.authorize(PROXY, "CONNECT", "h:443", List.of("Basic realm=\"x\"")));
    assertNull(basic.authorize(PROXY, "CONNECT", "h:443", DIGEST), "Basic to a proxy asking for Digest is refused anyway");
    assertFalse(basic.toString().contains("dTpw"));
    assertThrows(IllegalArgumentException.class, () -> ProxyAuthenticator.basic("a:b", "p"));
  }

  @Test
  void digestAnswersAChallengeThenReusesTheNonceUntilRefused() {
    ProxyAuthenticator digest = ProxyAuthenticator.digest("u", "p");
    assertNull(digest.authorize(PROXY, "CONNECT", "h:443", List.of()), "nothing to sign before a challenge");
    String first = digest.authorize(PROXY, "CONNECT", "h:443", DIGEST);
    assertTrue(first.startsWith("Digest username=\"u\", realm=\"r\", uri=\"h:443\"") && first.contains("nc=00000001"), first);
    String next = digest.authorize(PROXY, "GET", "http://a/b", List.of());
    assertTrue(next.contains("uri=\"http://a/b\"") && next.contains("nc=00000002"), next);
    assertNull(digest.authorize(URI.create("http://other:3128"), "CONNECT", "h:443", List.of()), "per proxy");
    assertNull(digest.authorize(PROXY, "CONNECT", "h:443", DIGEST), "the same nonce, not stale: refused");
    assertNull(digest.authorize(PROXY, "CONNECT", "h:443", List.of()), "and forgotten");
    String stale = digest.authorize(PROXY, "CONNECT", "h:443", List.of("Digest realm=\"r\", nonce=\"n2\", qop=\"auth\", stale=true"));
    assertTrue(stale.contains("nonce=\"n2\""), stale);
    assertNull(digest.authorize(PROXY, "CONNECT", "h:443", List.of("Basic realm=\"x\"")));
  }

  @Test
  void orElseAsksTheSecondWhenTheFirstHasNoAnswer() {
    ProxyAuthenticator both = ProxyAuthenticator.digest("u", "p").orElse(ProxyAuthenticator.basic("u", "p"));
    assertEquals("Basic dTpw", both.authorize(PROXY, "CONNECT", "h:443", List.of("Basic realm=\"x\"")));
    assertTrue(both.authorize(PROXY, "CONNECT", "h:443", DIGEST).startsWith("Digest "));
  }

  @Test
  void negotiateAnswersOnlyANegotiateChallenge() {
    assertNull(ProxyAuthenticator.negotiate().authorize(PROXY, "CONNECT", "h:443", List.of()));
    assertNull(ProxyAuthenticator.negotiate().authorize(PROXY, "CONNECT", "h:443", DIGEST));
  }

  @Test
  void withersDecorateEveryRouteAndNoneStaysNone() {
    ProxyAuthenticator auth = ProxyAuthenticator.basic("u", "p");
    assertSame(Proxy.none(), Proxy.none().withAuthenticator(auth).withTls(Tls.insecure()));
    Proxy p = Proxy.http("https://proxy:3129").withTls(Tls.insecure()).withAuthenticator(auth);
    assertEquals(Proxy.http("https://proxy:3129").withTls(Tls.insecure()).withAuthenticator(auth), p);
    assertNotEquals(Proxy.http("https://proxy:3129"), p);
    assertTrue(p.toString().contains("https://proxy:3129") && p.toString().contains("ProxyAuthenticator.basic"), p.toString());
    Proxy env = Proxy.fromEnvironment(java.util.Map.of("https_proxy", "https://p:1")).withAuthenticator(auth);
    assertEquals(java.util.Optional.of(URI.create("https://p:1")), env.proxyFor(URI.create("https://example.com/")));
    assertEquals(java.util.Optional.empty(), env.proxyFor(URI.create("http://example.com/")));
  }
}
