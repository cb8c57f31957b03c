package dev.strand.internal.cookie;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import org.junit.jupiter.api.Test;

/** The bundled Public Suffix List: plain, wildcard and exception rules, and their effect on Set-Cookie. */
class PublicSuffixesTest {
  @Test
  void rulesOfEachKind() {
    assertTrue(PublicSuffixes.isPublicSuffix("com"));
    assertTrue(PublicSuffixes.isPublicSuffix("co.uk"));
    assertTrue(PublicSuffixes.isPublicSuffix("github.io"), "private section");
    assertTrue(PublicSuffixes.isPublicSuffix("anything.ck"), "*.ck");
    assertTrue(PublicSuffixes.isPublicSuffix("localdomain-without-dots"), "the default rule *");
    assertTrue(PublicSuffixes.isPublicSuffix("xn--p1ai"), "рф, converted to punycode");
    assertFalse(PublicSuffixes.isPublicSuffix("www.ck"), "!www.ck");
    assertFalse(PublicSuffixes.isPublicSuffix("example.co.uk"));
    assertFalse(PublicSuffixes.isPublicSuffix("example.com"));
    assertFalse(PublicSuffixes.isPublicSuffix("example.unlistedtld"));
  }

  @Test
  void aPublicSuffixCannotBeACookieDomain() {
    MemoryCookieJar jar = new MemoryCookieJar(() -> 0L);
    jar.store(URI.create("http://shop.example.co.uk/"), "a=1; Domain=co.uk");
    jar.store(URI.create("http://example.com/"), "b=1; Domain=com");
    assertNull(jar.cookieHeader(URI.create("http://other.co.uk/")));
    assertNull(jar.cookieHeader(URI.create("http://other.com/")));
    jar.store(URI.create("http://shop.example.co.uk/"), "c=1; Domain=example.co.uk");
    assertNotNull(jar.cookieHeader(URI.create("http://www.example.co.uk/")));
  }

  @Test
  void aHostThatIsAPublicSuffixMaySetAHostOnlyCookie() {
    MemoryCookieJar jar = new MemoryCookieJar(() -> 0L);
    jar.store(URI.create("http://github.io/"), "a=1; Domain=github.io"); // RFC 6265 5.3 step 5: host-only
    assertNotNull(jar.cookieHeader(URI.create("http://github.io/")));
    assertNull(jar.cookieHeader(URI.create("http://user.github.io/")));
  }
}
