package dev.strand.bench.clients;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.PemTrustOptions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/** Vert.x 5 core HttpClient, HTTP/1.1 pool sized to the concurrency. */
final class VertxBench implements BenchClient {

  static final String SETUP = "Vertx.vertx() defaults; createHttpClient(HttpClientOptions keepAlive, "
      + "connectTimeout 30s, PoolOptions http1MaxSize = N, maxWaitQueueSize -1); "
      + "request(GET).send().body() with 30s timeout, N in flight. TLS: setSsl, PemTrustOptions(CA); h2: "
      + "setProtocolVersion(HTTP_2), setUseAlpn(true), default http2MaxSize 1 (one multiplexed connection); "
      + "h2c: HTTP_2 with setHttp2ClearTextUpgrade(false)";

  private final Vertx vertx;
  private final HttpClientAgent client;
  private final RequestOptions request;
  /**
   * Requests start on one Vert.x context, as Vert.x code runs: issued from the bench's dispatcher
   * thread (outside any context), a c=1 cell left one request waiting for good in every run.
   */
  private final Context context;

  VertxBench(ClientSpec spec) {
    this.vertx = Vertx.vertx();
    HttpClientOptions options = new HttpClientOptions().setKeepAlive(true)
        .setConnectTimeout((int) spec.timeout().toMillis());
    if (spec.ca() != null) {
      options.setSsl(true).setTrustOptions(new PemTrustOptions().addCertPath(spec.ca().toString()));
    }
    if (spec.wire() == Wire.H2_TLS) {
      options.setProtocolVersion(HttpVersion.HTTP_2).setUseAlpn(true);
    } else if (spec.wire() == Wire.H2C) {
      options.setProtocolVersion(HttpVersion.HTTP_2).setHttp2ClearTextUpgrade(false);
    }
    this.client = vertx.createHttpClient(options,
        new PoolOptions().setHttp1MaxSize(spec.concurrency()).setMaxWaitQueueSize(-1));
    this.context = vertx.getOrCreateContext();
    this.request = new RequestOptions()
        .setMethod(HttpMethod.GET)
        .setAbsoluteURI(spec.url().toString())
        .setTimeout(spec.timeout().toMillis());
  }

  @Override
  public boolean isBlocking() {
    return false;
  }

  @Override
  public CompletionStage<Integer> getAsync() {
    CompletableFuture<Integer> result = new CompletableFuture<>();
    context.runOnContext(v -> client.request(request)
        .compose(req -> req.send())
        .compose(resp -> resp.body().map(buf -> BenchClient.check(resp.statusCode(), buf.length())))
        .onComplete(result::complete, result::completeExceptionally));
    return result;
  }

  @Override
  public void close() {
    try {
      client.close().await(5, TimeUnit.SECONDS);
      vertx.close().await(5, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("vert.x did not close", e);
    }
  }
}
