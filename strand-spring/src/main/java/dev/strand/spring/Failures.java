package dev.strand.spring;

import dev.strand.ConnectException;
import dev.strand.ConnectTimeoutException;
import dev.strand.HttpException;
import dev.strand.ProtocolException;
import dev.strand.TimeoutException;
import dev.strand.TlsException;
import dev.strand.TransportException;
import dev.strand.TooManyRedirectsException;
import java.io.IOException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import javax.net.ssl.SSLException;

/**
 * Strand's failures as the {@link IOException}s Spring's HTTP abstractions expect, the types the JDK client
 * gives Spring's {@code JdkClientHttpRequestFactory} and {@code JdkClientHttpConnector}; the Strand exception
 * is always the cause, so nothing is lost. {@code RestTemplate} and {@code RestClient} then wrap them in
 * {@code ResourceAccessException}, {@code WebClient} in {@code WebClientRequestException}.
 */
final class Failures {
  private Failures() {}

  /**
   * The IOException for {@code e}, or {@code e} itself when it is not about I/O (an invalid URL is the
   * caller's mistake, unchecked in the JDK client too).
   */
  static IOException toIOException(HttpException e) {
    if (!(e instanceof TransportException) && !(e instanceof TooManyRedirectsException)) {
      throw e;
    }
    String message = e.getMessage();
    IOException io = switch (e) {
      case ConnectTimeoutException c -> new HttpConnectTimeoutException(message);
      case TimeoutException t -> new HttpTimeoutException(message);
      case ConnectException c -> new java.net.ConnectException(message);
      case TlsException t -> new SSLException(message, t);
      case ProtocolException p -> new java.net.ProtocolException(message);
      default -> new IOException(message, e);
    };
    if (io.getCause() == null) {
      io.initCause(e);
    }
    return io;
  }

  /** {@code t} as an IOException when it is a Strand failure; else {@code t} unchanged. */
  static Throwable map(Throwable t) {
    return t instanceof HttpException h && (h instanceof TransportException || h instanceof TooManyRedirectsException)
        ? toIOException(h)
        : t;
  }
}
