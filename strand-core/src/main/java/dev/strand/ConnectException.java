package dev.strand;

/** No connection could be made to the origin (refused, unreachable, or the host could not be resolved). */
public class ConnectException extends TransportException {
  public ConnectException(String message, Request request) {
    super(message, request);
  }

  public ConnectException(String message, Request request, Throwable cause) {
    super(message, request, cause);
  }

  /** False: no connection carried the request. */
  @Override
  public boolean mayHaveReachedServer() {
    return false;
  }
}
