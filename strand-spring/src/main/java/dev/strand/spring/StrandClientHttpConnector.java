package dev.strand.spring;

import dev.strand.Client;
import dev.strand.StreamingResponse;
import dev.strand.Timeout;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.reactive.ClientHttpConnector;
import org.springframework.http.client.reactive.ClientHttpRequest;
import org.springframework.http.client.reactive.ClientHttpResponse;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Spring's reactive {@link ClientHttpConnector} on a Strand {@link Client}, so {@code WebClient} sends
 * through Strand. The client is the caller's: this connector never closes it.
 *
 * <ul>
 *   <li>The exchange starts without blocking ({@code client.async().stream}); the response arrives as soon
 *       as its head has.
 *   <li>The request body's {@code Publisher<DataBuffer>} is subscribed when Strand starts the upload and is
 *       asked for one buffer at a time, the next only when Strand's upload pump has taken the last, so
 *       demand follows the connection and at most two buffers are held. A reactive body is one-shot: a 307
 *       redirect or a retry that would resend it fails instead. A body of at most 64 KiB with a known length
 *       ({@code bodyValue}) is joined first and sent in one write.
 *   <li>The response body is a {@code Flux<DataBuffer>} read from Strand's streaming body on a
 *       {@link Scheduler} for blocking work ({@link Schedulers#boundedElastic()} unless given; Reactor runs
 *       it on virtual threads with {@code reactor.schedulers.defaultBoundedElasticOnVirtualThreads=true}),
 *       one chunk per unit of demand. Cancelling the body, or the exchange before the response came,
 *       closes the Strand response and discards its connection.
 *   <li>Failures and timeouts map as for {@link StrandClientHttpRequestFactory}; {@code WebClient} wraps
 *       them in {@code WebClientRequestException}.
 * </ul>
 *
 * {@snippet :
 * try (Client client = Client.builder().cookies(false).build()) {
 *   WebClient web = WebClient.builder().clientConnector(new StrandClientHttpConnector(client)).build();
 *   String small = web.get().uri("http://127.0.0.1:8080/small").retrieve().bodyToMono(String.class).block();
 * }
 * }
 */
public final class StrandClientHttpConnector implements ClientHttpConnector {
  private static final int PENDING = 0;
  private static final int DELIVERED = 1;
  private static final int CANCELLED = 2;

  private final Client client;
  private final Scheduler scheduler;
  private volatile Timeout timeout;

  /** A connector sending through {@code client}, reading bodies on {@link Schedulers#boundedElastic()}. */
  public StrandClientHttpConnector(Client client) {
    this(client, Schedulers.boundedElastic());
  }

  /** A connector sending through {@code client}, reading response bodies on {@code scheduler}, which may block. */
  public StrandClientHttpConnector(Client client, Scheduler scheduler) {
    this.client = Objects.requireNonNull(client, "client");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
  }

  /** The client requests go through. */
  public Client client() {
    return client;
  }

  /** The timeout every request of this connector carries, or {@code null} for the client's. */
  public Timeout timeout() {
    return timeout;
  }

  /** Every request of this connector carries {@code timeout} ({@code null}: the client's). */
  public void setTimeout(Timeout timeout) {
    this.timeout = timeout;
  }

  /** Sets the connect phase of {@link #timeout()}, as {@link StrandClientHttpRequestFactory#setConnectTimeout}. */
  public void setConnectTimeout(Duration connect) {
    this.timeout = Requests.withConnect(timeout, connect);
  }

  /** Sets the read phase of {@link #timeout()}, as {@link StrandClientHttpRequestFactory#setReadTimeout}. */
  public void setReadTimeout(Duration read) {
    this.timeout = Requests.withRead(timeout, read);
  }

  @Override
  public Mono<ClientHttpResponse> connect(HttpMethod method, URI uri,
      Function<? super ClientHttpRequest, Mono<Void>> requestCallback) {
    StrandReactiveRequest request = new StrandReactiveRequest(method, uri, timeout);
    return requestCallback.apply(request).then(Mono.defer(() -> send(request)));
  }

  private Mono<ClientHttpResponse> send(StrandReactiveRequest request) {
    return Mono.<ClientHttpResponse>create(sink -> {
      CompletableFuture<StreamingResponse> future = client.async().stream(request.build());
      // Whoever comes first owns the response: the subscriber, or the cancellation, which then closes it when it
      // comes; once delivered, it is WebClient's to read or release. A value Reactor drops is closed (doOnDiscard).
      AtomicInteger state = new AtomicInteger(PENDING);
      sink.onCancel(() -> state.compareAndSet(PENDING, CANCELLED));
      future.whenComplete((response, failure) -> {
        if (failure != null) {
          sink.error(Failures.map(unwrap(failure)));
        } else if (state.compareAndSet(PENDING, DELIVERED)) {
          sink.success(new StrandReactiveResponse(response, scheduler));
        } else {
          response.close();
        }
      });
    }).doOnDiscard(StrandReactiveResponse.class, StrandReactiveResponse::discard);
  }

  private static Throwable unwrap(Throwable t) {
    return t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
  }
}
