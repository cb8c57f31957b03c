package dev.strand.internal.exchange;

import dev.strand.Request;
import dev.strand.RequestBody;

/** How a request's body is delimited on the wire, the same decision for HTTP/1.1, HTTP/2 and HTTP/3. */
public enum RequestFraming {
  /** No body and no {@code Content-Length} (a GET, a HEAD, a DELETE without a body). */
  NONE,
  /** A {@code Content-Length}, possibly 0: a POST, PUT or PATCH without a body still says so, or some servers wait for one. */
  LENGTH,
  /** A body of unknown length: chunks on HTTP/1.1; on HTTP/2 and HTTP/3 the end of the stream ends it. */
  STREAMED;

  /** How {@code request}'s body is framed. */
  public static RequestFraming of(Request request) {
    RequestBody body = request.body();
    if (body != null) {
      return body.contentLength() < 0 ? STREAMED : LENGTH;
    }
    return switch (request.method()) {
      case "POST", "PUT", "PATCH" -> LENGTH;
      default -> NONE;
    };
  }

  /** The {@code Content-Length} of {@code request} when framed by {@link #LENGTH} (0 without a body). */
  public static long contentLength(Request request) {
    RequestBody body = request.body();
    return body == null ? 0 : Math.max(0, body.contentLength());
  }
}
