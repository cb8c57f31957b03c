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

/** OkHttp 5 through its own async dispatcher ({@code enqueue}), sized to the concurrency. */
final class OkHttpBench implements BenchClient {

  static final String SETUP = "Dispatcher maxRequests = maxRequestsPerHost = N; ConnectionPool(N idle, 5 min); "
      + "protocols [HTTP_1_1]; connect/read/write timeout 30s; enqueue(), body bytes() read in onResponse";

  private final OkHttpClient client;
  private final Request request;

  OkHttpBench(ClientSpec spec) {
    Dispatcher dispatcher = new Dispatcher();
    dispatcher.setMaxRequests(spec.concurrency());
    dispatcher.setMaxRequestsPerHost(spec.concurrency());
    long timeoutMs = spec.timeout().toMillis();
    this.client = new OkHttpClient.Builder()
        .dispatcher(dispatcher)
        .connectionPool(new ConnectionPool(spec.concurrency(), 5, TimeUnit.MINUTES))
        .protocols(List.of(Protocol.HTTP_1_1))
        .connectTimeout(timeoutMs, TimeUnit.MILLISECONDS)
        .readTimeout(timeoutMs, TimeUnit.MILLISECONDS)
        .writeTimeout(timeoutMs, TimeUnit.MILLISECONDS)
        .followRedirects(false)
        .build();
    this.request = new Request.Builder().url(spec.url().toString()).build();
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
