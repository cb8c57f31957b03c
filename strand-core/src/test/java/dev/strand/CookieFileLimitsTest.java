package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.internal.cookie.MemoryCookieJar;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** cookies.txt lines at the edges: expiries beyond what Instant and a long of milliseconds hold, odd domains. */
class CookieFileLimitsTest {
  @TempDir
  Path dir;

  // Found by CookiesFuzzTest: an expiry of 9e18 seconds threw DateTimeException out of CookieFile.read, and one of
  // 9e15 seconds read fine but threw ArithmeticException when the cookie was added to a jar.
  @Test
  void anExpiryBeyondWhatMillisecondsHoldMeansNever() throws IOException {
    Path file = dir.resolve("cookies.txt");
    Files.writeString(file, "example.com\tFALSE\t/\tFALSE\t9000000000000000000\ta\t1\n"
        + "example.com\tFALSE\t/\tFALSE\t9000000000000000\tb\t2\n"
        + "example.com\tFALSE\t/\tFALSE\t-5\tc\t3\n");
    List<Cookie> cookies = CookieFile.read(file);
    assertEquals(3, cookies.size());
    assertEquals(Instant.ofEpochSecond(Long.MAX_VALUE / 1000), cookies.get(0).expires());
    assertEquals(Instant.ofEpochSecond(1), cookies.get(2).expires()); // before the epoch: expired
    MemoryCookieJar jar = new MemoryCookieJar(() -> 1_760_000_000_000L);
    cookies.forEach(jar::add);
    jar.add(Cookie.builder("d", "4").domain("example.com").expires(Instant.MAX).build());
    assertEquals("a=1; b=2; d=4", jar.cookieHeader(URI.create("http://example.com/")));
  }

  // Found by CookiesFuzzTest: "..example.com" lost one dot per read and write, so the file changed each time;
  // ".#HttpOnly_x" was read as the domain "#httponly_x", whose line, written back, reads as a comment; ". x" kept
  // its space until the next read.
  @Test
  void aDomainStartingWithADotOrAHashIsNoCookie() throws IOException {
    Path file = dir.resolve("cookies.txt");
    Files.writeString(file, "..example.com\tFALSE\t/\tFALSE\t0\ta\t1\n.example.com\tTRUE\t/\tFALSE\t0\tb\t2\n"
        + ".#HttpOnly_example.com\tFALSE\t/\tFALSE\t0\tc\t3\n" + ". example.org\tFALSE\t/\tFALSE\t0\td\t4\n");
    List<Cookie> cookies = CookieFile.read(file);
    assertEquals(2, cookies.size());
    assertEquals("example.com", cookies.get(0).domain());
    assertEquals("example.org", cookies.get(1).domain()); // a space after the dot, dropped as one before it is
  }
}
