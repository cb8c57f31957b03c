package dev.strand;

/** No pooled connection became available within {@link Timeout#pool()}. */
public class PoolTimeoutException extends TimeoutException {
  public PoolTimeoutException(String message, Request request) {
    super(message, request);
  }

  public PoolTimeoutException(String message, Request request, Throwable cause) {
    super(message, request, cause);
  }
}
