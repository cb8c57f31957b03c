package dev.strand;

/** Sending the request took longer than {@link Timeout#write()} without progress. */
public class WriteTimeoutException extends TimeoutException {
  public WriteTimeoutException(String message, Request request) {
    super(message, request);
  }

  public WriteTimeoutException(String message, Request request, Throwable cause) {
    super(message, request, cause);
  }
}
