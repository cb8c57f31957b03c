package dev.strand.spring;

import dev.strand.StreamingResponse;
import java.net.HttpCookie;
import java.util.Iterator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseCookie;
import org.springframework.http.client.reactive.AbstractClientHttpResponse;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Scheduler;

/**
 * A Strand streaming response as WebClient's. The body is read with Strand's blocking
 * {@code readChunk} on {@code scheduler}, one chunk per unit of demand: nothing is read ahead of the
 * subscriber, and Strand's own flow control holds the connection back meanwhile. Completion, an error or
 * a cancellation closes the Strand response (a cancellation discards its connection).
 */
final class StrandReactiveResponse extends AbstractClientHttpResponse {
  private static final Pattern SAME_SITE = Pattern.compile("(?i)(?:^|;)\\s*SameSite\\s*=\\s*([^;]*)");

  private final StreamingResponse response;

  StrandReactiveResponse(StreamingResponse response, Scheduler scheduler) {
    super(HttpStatusCode.valueOf(response.status()), Requests.toSpring(response.headers()),
        cookies(response), body(response, scheduler));
    this.response = response;
  }

  /** Closes a response that Reactor dropped before anyone subscribed to its body. */
  void discard() {
    response.close();
  }

  private static Flux<DataBuffer> body(StreamingResponse response, Scheduler scheduler) {
    return Flux.<DataBuffer, Iterator<byte[]>>generate(() -> response.chunks().iterator(), (chunks, sink) -> {
      try {
        if (chunks.hasNext()) {
          sink.next(DefaultDataBufferFactory.sharedInstance.wrap(chunks.next()));
        } else {
          sink.complete();
        }
      } catch (RuntimeException e) {
        sink.error(Failures.map(e));
      }
      return chunks;
    }, chunks -> response.close()).subscribeOn(scheduler);
  }

  private static MultiValueMap<String, ResponseCookie> cookies(StreamingResponse response) {
    MultiValueMap<String, ResponseCookie> out = new LinkedMultiValueMap<>();
    for (String header : response.headers().all(HttpHeaders.SET_COOKIE)) {
      try {
        for (HttpCookie c : HttpCookie.parse(header)) {
          ResponseCookie.ResponseCookieBuilder cookie = ResponseCookie.from(c);
          Matcher sameSite = SAME_SITE.matcher(header);
          if (sameSite.find()) {
            cookie.sameSite(sameSite.group(1).trim());
          }
          ResponseCookie built = cookie.build();
          out.add(built.getName(), built);
        }
      } catch (IllegalArgumentException malformed) {
        // A cookie the JDK's parser rejects is left out, as Spring's JDK connector leaves it out.
      }
    }
    return out;
  }
}
