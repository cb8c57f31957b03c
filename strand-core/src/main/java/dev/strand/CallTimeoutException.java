package dev.strand;

/**
 * The whole call took longer than {@link Timeout#call()}: pool wait, connects, redirects, retries and
 * the body together. The connection it was using is discarded.
 */
public class CallTimeoutException extends TimeoutException {
  public CallTimeoutException(String message, Request request) {
    super(message, request);
  }

  public CallTimeoutException(String message, Request request, Throwable cause) {
    super(message, request, cause);
  }

  /** False: the call's time is up, retries included. */
  @Override
  public boolean isRetryable() {
    return false;
  }
}
