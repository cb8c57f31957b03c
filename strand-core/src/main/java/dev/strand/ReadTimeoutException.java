package dev.strand;

/** No response bytes arrived for longer than {@link Timeout#read()}. */
public class ReadTimeoutException extends TimeoutException {
  public ReadTimeoutException(String message, Request request) {
    super(message, request);
  }

  public ReadTimeoutException(String message, Request request, Throwable cause) {
    super(message, request, cause);
  }
}
