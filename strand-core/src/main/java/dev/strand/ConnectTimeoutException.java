package dev.strand;

/** Establishing the connection took longer than {@link Timeout#connect()}. */
public class ConnectTimeoutException extends TimeoutException {
  public ConnectTimeoutException(String message, Request request) {
    super(message, request);
  }

  public ConnectTimeoutException(String message, Request request, Throwable cause) {
    super(message, request, cause);
  }

  /** False: no connection carried the request. */
  @Override
  public boolean mayHaveReachedServer() {
    return false;
  }
}
