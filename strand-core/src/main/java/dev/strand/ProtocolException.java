package dev.strand;

/** The peer sent malformed HTTP, or the protocol was misused locally. The connection is discarded. */
public class ProtocolException extends TransportException {
  public ProtocolException(String message, Request request) {
    super(message, request);
  }

  public ProtocolException(String message, Request request, Throwable cause) {
    super(message, request, cause);
  }

  /** False: the peer would answer the same way again. */
  @Override
  public boolean isRetryable() {
    return false;
  }
}
