package dev.strand.spring;

import dev.strand.Client;
import dev.strand.Timeout;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;

/**
 * Spring's {@link ClientHttpRequestFactory} on a Strand {@link Client}, so {@code RestClient} and
 * {@code RestTemplate} send through Strand's pool, interceptors, retries and listeners. The client is the
 * caller's: this factory never closes it.
 *
 * <ul>
 *   <li>Request bodies stream: Spring writes them on a virtual thread into a pipe of two 16 KiB chunks that
 *       Strand's upload reads as the connection accepts data; a body of at most 64 KiB with a known length
 *       is written at once on the calling thread instead.
 *   <li>Response bodies stream from {@link dev.strand.StreamingResponse#body()}, one chunk in memory at a
 *       time. Closing the response closes Strand's: its connection returns to the pool when the body was read
 *       to its end, which closing tries for up to 64 KiB of unread body, as Spring's JDK factory drains.
 *   <li>Failures are the {@link java.io.IOException}s of Spring's {@code JdkClientHttpRequestFactory},
 *       with the Strand exception as cause: {@link java.net.http.HttpConnectTimeoutException} for
 *       {@link dev.strand.ConnectTimeoutException}, {@link java.net.http.HttpTimeoutException} for the other
 *       {@link dev.strand.TimeoutException}s, {@link java.net.ConnectException},
 *       {@link javax.net.ssl.SSLException} for TLS, {@link java.net.ProtocolException}, else a plain
 *       IOException. {@code RestClient} and {@code RestTemplate} turn them into
 *       {@code ResourceAccessException}; statuses are left to Spring's error handlers.
 *   <li>Timeouts are the client's unless set here. Strand's per-request {@link Timeout} replaces the
 *       client's whole, so {@link #setConnectTimeout} and {@link #setReadTimeout} change one phase of
 *       {@link #setTimeout this factory's timeout}, which starts as {@link Timeout#DEFAULT}, not as the
 *       client's: give a client with other limits its {@code Timeout} here first.
 * </ul>
 *
 * {@snippet :
 * try (Client client = Client.builder().cookies(false).build()) {   // no cookie jar shared between users
 *   StrandClientHttpRequestFactory factory = new StrandClientHttpRequestFactory(client);
 *   factory.setReadTimeout(Duration.ofSeconds(30));
 *   RestClient rest = RestClient.builder().requestFactory(factory).baseUrl("http://127.0.0.1:8080").build();
 *   String small = rest.get().uri("/small").retrieve().body(String.class);
 * }
 * }
 */
public final class StrandClientHttpRequestFactory implements ClientHttpRequestFactory {
  private final Client client;
  private volatile Timeout timeout;

  /** A factory sending through {@code client} with the client's timeouts. */
  public StrandClientHttpRequestFactory(Client client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  /** The client requests go through. */
  public Client client() {
    return client;
  }

  /** The timeout every request of this factory carries, or {@code null} for the client's. */
  public Timeout timeout() {
    return timeout;
  }

  /** Every request of this factory carries {@code timeout} ({@code null}: the client's). */
  public void setTimeout(Timeout timeout) {
    this.timeout = timeout;
  }

  /** Sets the connect phase of {@link #timeout()} ({@code null}: no limit). */
  public void setConnectTimeout(Duration connect) {
    this.timeout = Requests.withConnect(timeout, connect);
  }

  /** Sets the read phase (the longest silence while waiting for response bytes) of {@link #timeout()}. */
  public void setReadTimeout(Duration read) {
    this.timeout = Requests.withRead(timeout, read);
  }

  @Override
  public ClientHttpRequest createRequest(URI uri, HttpMethod httpMethod) {
    return new StrandClientHttpRequest(client, httpMethod, uri, timeout);
  }
}
