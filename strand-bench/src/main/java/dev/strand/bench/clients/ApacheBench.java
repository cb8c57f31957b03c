package dev.strand.bench.clients;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.config.TlsConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http2.HttpVersionPolicy;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.util.Timeout;

/** Apache HttpClient 5 async (classic I/O reactor), pool sized to the concurrency. */
final class ApacheBench implements BenchClient {

  static final String SETUP = "HttpAsyncClients.custom(): PoolingAsyncClientConnectionManager maxTotal = maxPerRoute = N, "
      + "FORCE_HTTP_1, connect/socket/response/connection-request timeout 30s, redirects off; "
      + "execute(SimpleHttpRequest) (body buffered), N in flight. TLS: ClientTlsStrategyBuilder with an SSLContext "
      + "trusting the CA; h2/h2c: HttpAsyncClients.customHttp2() (one multiplexed connection per route)";

  private final CloseableHttpAsyncClient client;
  private final SimpleHttpRequest request;

  ApacheBench(ClientSpec spec) {
    Timeout timeout = Timeout.of(spec.timeout());
    RequestConfig requests = RequestConfig.custom()
        .setConnectionRequestTimeout(timeout)
        .setResponseTimeout(timeout)
        .setRedirectsEnabled(false)
        .build();
    var tls = spec.ca() == null ? null : ClientTlsStrategyBuilder.create()
        .setSslContext(Trust.sslContext(spec.ca())).buildAsync();
    if (spec.wire().h2()) {
      // The HTTP/2-only client: one multiplexed connection per route (prior knowledge in cleartext).
      var h2 = HttpAsyncClients.customHttp2()
          .setDefaultRequestConfig(requests)
          .setIOReactorConfig(IOReactorConfig.custom().setSoTimeout(timeout).build());
      if (tls != null) {
        h2.setTlsStrategy(tls);
      }
      this.client = h2.build();
      client.start();
      this.request = SimpleRequestBuilder.get(spec.url()).build();
      return;
    }
    var connections = PoolingAsyncClientConnectionManagerBuilder.create()
        .setTlsStrategy(tls)
        .setMaxConnTotal(spec.concurrency())
        .setMaxConnPerRoute(spec.concurrency())
        .setDefaultConnectionConfig(ConnectionConfig.custom()
            .setConnectTimeout(timeout)
            .setSocketTimeout(timeout)
            .build())
        .setDefaultTlsConfig(TlsConfig.custom().setVersionPolicy(HttpVersionPolicy.FORCE_HTTP_1).build())
        .build();
    this.client = HttpAsyncClients.custom()
        .setConnectionManager(connections)
        .setDefaultRequestConfig(requests)
        .build();
    client.start();
    this.request = SimpleRequestBuilder.get(spec.url()).build();
  }

  @Override
  public boolean isBlocking() {
    return false;
  }

  @Override
  public CompletionStage<Integer> getAsync() {
    CompletableFuture<Integer> result = new CompletableFuture<>();
    client.execute(request, new FutureCallback<SimpleHttpResponse>() {
      @Override
      public void completed(SimpleHttpResponse r) {
        try {
          byte[] body = r.getBodyBytes();
          result.complete(BenchClient.check(r.getCode(), body == null ? 0 : body.length));
        } catch (Throwable t) {
          result.completeExceptionally(t);
        }
      }

      @Override
      public void failed(Exception e) {
        result.completeExceptionally(e);
      }

      @Override
      public void cancelled() {
        result.cancel(false);
      }
    });
    return result;
  }

  @Override
  public void close() {
    client.close(CloseMode.GRACEFUL);
  }
}
