package dev.strand.spring;

import dev.strand.Headers;
import dev.strand.Request;
import dev.strand.Timeout;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;

/** Spring's request and response heads to Strand's and back; shared by the blocking and reactive adapters. */
final class Requests {
  /**
   * Fields Strand writes itself from the request and its body (framing, connection management), as the JDK
   * client refuses them: copying Spring's would send them twice or contradict the body.
   */
  private static final Set<String> NOT_COPIED = Set.of("content-length", "transfer-encoding", "connection",
      "keep-alive", "proxy-connection", "host", "upgrade", "te", "trailer", "expect");

  private Requests() {}

  /** A Strand request with Spring's method, URL and headers; {@code Expect: 100-continue} becomes Strand's own. */
  static Request.Builder builder(HttpMethod method, URI uri, HttpHeaders headers, Timeout timeout) {
    Request.Builder b = Request.builder(method.name(), uri);
    headers.forEach((name, values) -> {
      if (!NOT_COPIED.contains(name.toLowerCase(Locale.ROOT))) {
        for (String value : values) {
          b.header(name, value);
        }
      }
    });
    if ("100-continue".equalsIgnoreCase(headers.getFirst(HttpHeaders.EXPECT))) {
      b.expectContinue(true);
    }
    if (timeout != null) {
      b.timeout(timeout);
    }
    return b;
  }

  static HttpHeaders toSpring(Headers headers) {
    HttpHeaders out = new HttpHeaders();
    headers.forEach(out::add);
    return out;
  }

  /**
   * {@code current} with one phase changed: Strand's per-request timeout replaces the client's as a whole,
   * so a first change starts from {@link Timeout#DEFAULT}, the client's own default.
   */
  static Timeout withConnect(Timeout current, Duration connect) {
    return (current != null ? current : Timeout.DEFAULT).withConnect(connect);
  }

  static Timeout withRead(Timeout current, Duration read) {
    return (current != null ? current : Timeout.DEFAULT).withRead(read);
  }
}
