package dev.strand;

/** The exchange failed on the wire: connecting, writing the request or reading the response. */
public class TransportException extends HttpException {
  public TransportException(String message, Request request) {
    super(message, request);
  }

  public TransportException(String message, Request request, Throwable cause) {
    super(message, request, cause);
  }
}
