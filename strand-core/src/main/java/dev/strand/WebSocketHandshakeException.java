package dev.strand;

/**
 * The server answered a WebSocket handshake with something other than {@code 101 Switching
 * Protocols}: the status, reason and headers it sent instead are kept (its body is not).
 */
public class WebSocketHandshakeException extends ProtocolException {
  private final int status;
  private final transient Headers headers;

  /** For transports: the server answered {@code status} with {@code headers} to {@code request}. */
  public WebSocketHandshakeException(String message, Request request, int status, Headers headers) {
    super(message, request);
    this.status = status;
    this.headers = headers;
  }

  /** The status the server answered with, e.g. 403. */
  public int status() {
    return status;
  }

  /** The headers of that response. */
  public Headers headers() {
    return headers;
  }
}
