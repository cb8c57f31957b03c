package dev.strand;

/**
 * Root of every exception Strand throws. Unchecked, and each carries the request it concerns.
 *
 * <pre>
 * HttpException
 * ├── TransportException            the exchange failed on the wire
 * │   ├── ConnectException          no connection could be made
 * │   ├── TlsException              the TLS handshake or layer failed; {@link TlsException#reason()} says why
 * │   ├── TimeoutException          a phase took longer than its {@link Timeout}
 * │   │   ├── ConnectTimeoutException
 * │   │   ├── ReadTimeoutException
 * │   │   ├── WriteTimeoutException
 * │   │   ├── PoolTimeoutException
 * │   │   └── CallTimeoutException  the whole call, end to end ({@link Timeout#call()})
 * │   └── ProtocolException         malformed peer data, a local misuse of the protocol, or an HTTP/2 stream reset
 * ├── TooManyRedirectsException
 * ├── HttpStatusException           from {@link Response#raiseForStatus()}
 * └── InvalidUrlException
 * </pre>
 *
 * <p>Blocking calls throw these directly; futures from async calls complete exceptionally with them.
 */
public class HttpException extends RuntimeException {
  private final transient Request request;

  public HttpException(String message, Request request) {
    this(message, request, null);
  }

  public HttpException(String message, Request request, Throwable cause) {
    super(message, cause);
    this.request = request;
  }

  /** The request this failure concerns; {@code null} only when no request could be built (a bad URL). */
  public Request request() {
    return request;
  }
}
