package dev.strand;

/** A redirect chain was longer than the client's {@code maxRedirects}. */
public class TooManyRedirectsException extends HttpException {
  public TooManyRedirectsException(String message, Request request) {
    super(message, request);
  }

  public TooManyRedirectsException(String message, Request request, Throwable cause) {
    super(message, request, cause);
  }
}
