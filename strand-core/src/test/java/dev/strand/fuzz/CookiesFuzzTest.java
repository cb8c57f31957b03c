package dev.strand.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.strand.Cookie;
import dev.strand.CookieFileFuzzEntryPoints;
import dev.strand.internal.cookie.CookieFuzzEntryPoints;
import dev.strand.internal.cookie.MemoryCookieJar;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * Set-Cookie values into the jar, cookies.txt lines, cookie dates and public-suffix matching. A jar takes any
 * Set-Cookie (storing or ignoring it), and what it stores survives a round trip through a cookies.txt file.
 */
class CookiesFuzzTest {
  private static final long NOW = 1_760_000_000_000L;
  private static final URI URL = URI.create("https://www.example.co.uk/a/b/page");

  @FuzzTest
  void setCookie(byte[] headers) {
    MemoryCookieJar jar = new MemoryCookieJar(() -> NOW);
    jar.saveFromResponse(URL, Fuzzing.latin1(headers).lines().toList());
    jar.loadForRequest(URL);
    jar.cookieHeader(URI.create("http://example.co.uk/"));
    roundTrip(jar.cookies());
  }

  @FuzzTest
  void cookiesTxtLine(byte[] file) {
    List<Cookie> cookies = new ArrayList<>();
    for (String line : Fuzzing.utf8(file).split("\r\n|\r|\n", -1)) {
      Cookie c = CookieFileFuzzEntryPoints.parseLine(line);
      if (c != null) {
        cookies.add(c);
      }
    }
    roundTrip(cookies);
    MemoryCookieJar jar = new MemoryCookieJar(() -> NOW);
    for (Cookie c : cookies) {
      try {
        jar.add(c);
      } catch (IllegalArgumentException refused) {
        // add's documented refusal: a domain that is a public suffix
      }
    }
    jar.loadForRequest(URL);
  }

  @FuzzTest
  void publicSuffix(byte[] name) {
    String text = Fuzzing.latin1(name);
    int space = text.indexOf(' ');
    String host = space < 0 ? text : text.substring(0, space);
    String domain = space < 0 ? text : text.substring(space + 1);
    CookieFuzzEntryPoints.isPublicSuffix(domain);
    CookieFuzzEntryPoints.domainMatch(host, domain);
    CookieFuzzEntryPoints.cookieDate(text);
  }

  /** Cookies written to a cookies.txt file and read back are the same cookies (expiry to the second). */
  private static void roundTrip(List<Cookie> cookies) {
    List<Cookie> back = CookieFileFuzzEntryPoints.writtenAndRead(cookies);
    if (back.size() != cookies.size()) {
      throw new AssertionError("wrote " + cookies + " read " + back);
    }
    for (int i = 0; i < back.size(); i++) {
      Cookie a = cookies.get(i);
      Cookie b = back.get(i);
      boolean same = a.name().equals(b.name()) && a.value().equals(b.value()) && a.domain().equals(b.domain())
          && a.path().equals(b.path()) && a.secure() == b.secure() && a.httpOnly() == b.httpOnly()
          && a.hostOnly() == b.hostOnly()
          && (a.expires() == null ? b.expires() == null
              : b.expires() != null && Math.max(1, a.expires().getEpochSecond()) == b.expires().getEpochSecond());
      if (!same) {
        throw new AssertionError("cookies.txt round trip changed " + a + " into " + b);
      }
    }
  }
}
