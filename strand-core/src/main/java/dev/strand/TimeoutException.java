package dev.strand;

/** A phase of the exchange took longer than its {@link Timeout} allowed. */
public class TimeoutException extends TransportException {
  public TimeoutException(String message, Request request) {
    super(message, request);
  }

  public TimeoutException(String message, Request request, Throwable cause) {
    super(message, request, cause);
  }
}
