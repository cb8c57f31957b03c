package dev.strand.internal.client;

import dev.strand.Headers;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/** The HTTP side of server-sent events: what the request asks for, and which responses are event streams. */
final class EventStreams {
  static final String MEDIA_TYPE = "text/event-stream";

  private EventStreams() {}

  /** {@code request} with {@code Accept: text/event-stream} and {@code Cache-Control: no-cache}, unless it set them. */
  static Request prepare(Request request) {
    Headers headers = request.headers();
    if (headers.contains("Accept") && headers.contains("Cache-Control")) {
      return request;
    }
    Request.Builder b = request.toBuilder();
    if (!headers.contains("Accept")) {
      b.header("Accept", MEDIA_TYPE);
    }
    if (!headers.contains("Cache-Control")) {
      b.header("Cache-Control", "no-cache");
    }
    return b.build();
  }

  /**
   * Completes with {@code r} if it is an event stream: a 2xx with Content-Type {@code text/event-stream},
   * or a 204 (an empty stream: per the HTML standard, the server's way of saying "do not reconnect").
   * A 4xx/5xx fails with the {@code HttpStatusException} of {@code Response.raiseForStatus()}, carrying
   * the error body when it is small (its connection then goes back to the pool); anything else fails
   * with a {@link ProtocolException} and discards the connection.
   */
  static CompletableFuture<StreamingResponse> check(StreamingResponse r, long startNanos) {
    if (r.status() >= 400) {
      return Responses.drain(r, startNanos).thenApply(error -> {
        error.raiseForStatus(); // throws: the status is >= 400
        return r;
      });
    }
    String problem = problem(r);
    if (problem == null) {
      return CompletableFuture.completedFuture(r);
    }
    r.close();
    return CompletableFuture.failedFuture(new ProtocolException(problem + " (" + r.request() + ")", r.request()));
  }

  private static String problem(StreamingResponse r) {
    if (r.status() == 204) {
      return null;
    }
    if (!r.isSuccess()) {
      String hint = r.isRedirect() ? ", a redirect not followed (Client.Builder.followRedirects)" : "";
      return "expected an event stream, got " + r.status() + " " + r.reason() + hint;
    }
    String type = r.headers().first("Content-Type");
    if (type == null) {
      return "expected Content-Type " + MEDIA_TYPE + ", got a response without Content-Type";
    }
    int semicolon = type.indexOf(';');
    String media = (semicolon < 0 ? type : type.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
    return media.equals(MEDIA_TYPE) ? null : "expected Content-Type " + MEDIA_TYPE + ", got \"" + type + "\"";
  }
}
