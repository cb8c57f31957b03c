package dev.strand.bench.clients;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import javax.net.ssl.X509TrustManager;

/** OkHttp 5 through its own async dispatcher ({@code enqueue}), sized to the concurrency. */
final class OkHttpBench implements BenchClient {

  static final String SETUP = "Dispatcher maxRequests = maxRequestsPerHost = N; ConnectionPool(N idle, 5 min); "
      + "protocols [HTTP_1_1] (h2: default [HTTP_2, HTTP_1_1] by ALPN, its own pool (several connections while the first is being set up); h2c: "
      + "[H2_PRIOR_KNOWLEDGE]); TLS: sslSocketFactory trusting the CA; connect/read/write timeout 30s; "
      + "enqueue(), body bytes() read in onResponse";

  private final OkHttpClient client;
  private final Request request;

  OkHttpBench(ClientSpec spec) {
    Dispatcher dispatcher = new Dispatcher();
    dispatcher.setMaxRequests(spec.concurrency());
    dispatcher.setMaxRequestsPerHost(spec.concurrency());
    long timeoutMs = spec.timeout().toMillis();
    OkHttpClient.Builder b = new OkHttpClient.Builder()
        .dispatcher(dispatcher)
        .connectionPool(new ConnectionPool(spec.concurrency(), 5, TimeUnit.MINUTES))
        .protocols(protocols(spec.wire()))
        .connectTimeout(timeoutMs, TimeUnit.MILLISECONDS)
        .readTimeout(timeoutMs, TimeUnit.MILLISECONDS)
        .writeTimeout(timeoutMs, TimeUnit.MILLISECONDS)
        .followRedirects(false);
    if (spec.ca() != null) {
      X509TrustManager tm = Trust.trustManager(spec.ca());
      b.sslSocketFactory(Trust.sslContext(spec.ca()).getSocketFactory(), tm);
    }
    this.client = b.build();
    this.request = new Request.Builder().url(spec.url().toString()).build();
  }

  private static List<Protocol> protocols(Wire wire) {
    return switch (wire) {
      case H1, H1_TLS -> List.of(Protocol.HTTP_1_1);
      // OkHttp's default list: h2 when ALPN agrees.
      case H2_TLS -> List.of(Protocol.HTTP_2, Protocol.HTTP_1_1);
      case H2C -> List.of(Protocol.H2_PRIOR_KNOWLEDGE);
      case H3 -> throw new IllegalArgumentException("OkHttp has no HTTP/3");
    };
  }

  @Override
  public boolean isBlocking() {
    return false;
  }

  @Override
  public CompletionStage<Integer> getAsync() {
    CompletableFuture<Integer> result = new CompletableFuture<>();
    client.newCall(request).enqueue(new Callback() {
      @Override
      public void onFailure(Call call, IOException e) {
        result.completeExceptionally(e);
      }

      @Override
      public void onResponse(Call call, Response response) {
        try (response) {
          result.complete(BenchClient.check(response.code(), response.body().bytes().length));
        } catch (Throwable t) {
          result.completeExceptionally(t);
        }
      }
    });
    return result;
  }

  @Override
  public void close() {
    client.dispatcher().executorService().shutdown();
    client.connectionPool().evictAll();
  }
}
