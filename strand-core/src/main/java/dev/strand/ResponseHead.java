package dev.strand;

import java.util.Optional;
import javax.net.ssl.SSLSession;

/**
 * What is known of a response once its status line and headers have arrived: shared by the fully
 * read {@link Response} and the {@link StreamingResponse}. Response hooks receive this, before the body.
 */
public sealed interface ResponseHead permits Response, StreamingResponse {
  /** The status code, e.g. 200. */
  int status();

  /** The reason phrase as sent (may be empty; HTTP/2 has none). */
  String reason();

  Headers headers();

  /** The protocol version actually spoken. */
  Version version();

  /** The request that produced this response (for a redirect chain, the last hop's request). */
  Request request();

  /**
   * The TLS session the response came over (protocol, cipher suite, the server's certificates), as
   * the JDK client's {@code HttpResponse.sslSession()}; empty for cleartext and for responses not
   * from the network ({@link MockTransport}, hand-built ones).
   */
  Optional<SSLSession> sslSession();

  /** 2xx. */
  default boolean isSuccess() {
    return status() >= 200 && status() < 300;
  }

  /** 3xx with a Location header. */
  default boolean isRedirect() {
    return status() >= 300 && status() < 400 && headers().contains("Location");
  }
}
