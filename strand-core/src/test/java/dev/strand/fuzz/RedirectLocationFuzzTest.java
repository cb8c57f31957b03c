package dev.strand.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.strand.HttpException;
import dev.strand.Request;
import dev.strand.Response;
import dev.strand.internal.client.Redirects;
import java.net.URI;

/**
 * Location values of redirects, resolved against the URL that answered. The next request's URL is absolute
 * http(s) with a host (a scheme in any case, as everywhere in Strand), and it round-trips through its text form; a Location that cannot be followed is a
 * Strand exception.
 */
class RedirectLocationFuzzTest {
  private static final Request FROM = Request.builder("POST", "https://user@example.test:8443/a/b?q=1#f")
      .body(dev.strand.RequestBody.of("x")).build();

  @FuzzTest
  void location(byte[] value) {
    String location = Fuzzing.latin1(value);
    for (int status : new int[] {301, 303, 307}) {
      Request next;
      try {
        next = Redirects.next(FROM, Response.builder(status).header("Location", location).request(FROM).build(), true);
      } catch (HttpException | IllegalArgumentException refused) {
        // Headers refuses a value with CR, LF or NUL (IllegalArgumentException), as a peer's would never carry one
        return;
      }
      if (next == null) {
        continue;
      }
      URI to = next.url();
      if (!to.isAbsolute() || to.getHost() == null || !(to.getScheme().equalsIgnoreCase("http") || to.getScheme().equalsIgnoreCase("https"))) {
        throw new AssertionError("redirect to " + to + " from Location " + location);
      }
      if (!URI.create(to.toString()).equals(to)) {
        throw new AssertionError("URL does not round-trip: " + to);
      }
    }
  }
}
