package dev.strand.bench.clients;

import io.netty.channel.ChannelOption;
import java.util.concurrent.CompletionStage;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/** Reactor Netty HttpClient, its ConnectionProvider capped at the concurrency. */
final class ReactorBench implements BenchClient {

  static final String SETUP = "HttpClient.create(ConnectionProvider maxConnections = N, pendingAcquireMaxCount -1, "
      + "pendingAcquireTimeout 30s), connect timeout 30s, responseTimeout 30s, default loop resources; "
      + "get().uri(url).responseSingle(asByteArray), N in flight";

  private final ConnectionProvider provider;
  private final HttpClient client;
  private final String url;

  ReactorBench(ClientSpec spec) {
    this.url = spec.url().toString();
    this.provider = ConnectionProvider.builder("bench")
        .maxConnections(spec.concurrency())
        .pendingAcquireMaxCount(-1)
        .pendingAcquireTimeout(spec.timeout())
        .build();
    this.client = HttpClient.create(provider)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) spec.timeout().toMillis())
        .responseTimeout(spec.timeout());
  }

  @Override
  public boolean isBlocking() {
    return false;
  }

  @Override
  public CompletionStage<Integer> getAsync() {
    return client.get().uri(url)
        .responseSingle((response, body) -> body.asByteArray()
            .defaultIfEmpty(new byte[0])
            .map(bytes -> BenchClient.check(response.status().code(), bytes.length)))
        .switchIfEmpty(Mono.error(() -> new IllegalStateException("no response")))
        .toFuture();
  }

  @Override
  public void close() {
    provider.disposeLater().block(java.time.Duration.ofSeconds(5));
  }
}
