package dev.strand;

/** No pooled connection became available within {@link Timeout#pool()}. */
public class PoolTimeoutException extends TimeoutException {
  public PoolTimeoutException(String message, Request request) {
    super(message, request);
  }

  public PoolTimeoutException(String message, Request request, Throwable cause) {
    super(message, request, cause);
  }

  /** False: the request waited for a connection and never had one. */
  @Override
  public boolean mayHaveReachedServer() {
    return false;
  }

  /** False: the pool stayed full for the whole wait, and another attempt would join the same queue. */
  @Override
  public boolean isRetryable() {
    return false;
  }
}
