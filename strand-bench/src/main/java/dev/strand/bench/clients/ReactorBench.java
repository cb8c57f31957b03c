package dev.strand.bench.clients;

import io.netty.channel.ChannelOption;
import java.util.concurrent.CompletionStage;
import reactor.core.publisher.Mono;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.Http2SslContextSpec;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/** Reactor Netty HttpClient, its ConnectionProvider capped at the concurrency. */
final class ReactorBench implements BenchClient {

  static final String SETUP = "HttpClient.create(ConnectionProvider maxConnections = N, pendingAcquireMaxCount -1, "
      + "pendingAcquireTimeout 30s), connect timeout 30s, responseTimeout 30s, default loop resources; "
      + "get().uri(url).responseSingle(asByteArray), N in flight. TLS: Http11SslContextSpec / "
      + "Http2SslContextSpec trusting the CA; h2: protocol(H2), its Http2Pool multiplexes (up to N connections); "
      + "h2c: protocol(H2C)";

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
    HttpClient c = HttpClient.create(provider)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) spec.timeout().toMillis())
        .responseTimeout(spec.timeout());
    java.io.File ca = spec.ca() == null ? null : spec.ca().toFile();
    this.client = switch (spec.wire()) {
      case H1 -> c;
      case H1_TLS -> c.secure(ssl -> ssl.sslContext(Http11SslContextSpec.forClient()
          .configure(b -> b.trustManager(ca))));
      case H2_TLS -> c.protocol(HttpProtocol.H2).secure(ssl -> ssl.sslContext(Http2SslContextSpec.forClient()
          .configure(b -> b.trustManager(ca))));
      case H2C -> c.protocol(HttpProtocol.H2C);
      case H3 -> throw new IllegalArgumentException("HTTP/3 is not wired for Reactor Netty in this bench");
    };
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
