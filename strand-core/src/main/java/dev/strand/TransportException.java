package dev.strand;

/** The exchange failed on the wire: connecting, writing the request or reading the response. */
public class TransportException extends HttpException {
  public TransportException(String message, Request request) {
    super(message, request);
  }

  public TransportException(String message, Request request, Throwable cause) {
    super(message, request, cause);
  }

  /**
   * Whether the request may have reached the server before this failure, so that sending it again may
   * do twice what it asks: true unless the failure came before any connection carried it.
   * {@link RetryPolicy} resends such a request only when it {@linkplain Request#isIdempotent() is
   * idempotent} or the policy allows any request.
   */
  public boolean mayHaveReachedServer() {
    return true;
  }

  /**
   * Whether sending the request again could end otherwise: true for a connection refused, reset or
   * closed, or a read or write that timed out; false where the same failure would come again (TLS,
   * malformed HTTP) or where no time or room is left to try (the call's deadline, a full pool).
   */
  public boolean isRetryable() {
    return true;
  }
}
