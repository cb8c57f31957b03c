package dev.strand.guide;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.testkit.TestServerExtension;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The OkHttp side of the migration notes (docs/guide/migrating.md); the Strand side is {@link ToStrandTest}. */
class FromOkHttpTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @Test
  void okhttp() throws Exception {
    String base = server.get().baseUri().toString();
    // region okhttp
    Interceptor bearer = chain -> chain.proceed(chain.request().newBuilder()
        .header("Authorization", "Bearer t0k3n").build());
    OkHttpClient client = new OkHttpClient.Builder()
        .readTimeout(30, TimeUnit.SECONDS)
        .callTimeout(60, TimeUnit.SECONDS)
        .addInterceptor(bearer)
        .build();

    Request get = new Request.Builder().url(base + "/small").build();
    try (Response response = client.newCall(get).execute()) {
      System.out.println(response.code() + " " + response.body().string());
    }

    Request post = new Request.Builder().url(base + "/echo")
        .post(RequestBody.create("{\"name\": \"widget\"}", MediaType.get("application/json")))
        .build();
    CompletableFuture<String> async = new CompletableFuture<>();
    client.newCall(post).enqueue(new Callback() {
      @Override
      public void onResponse(Call call, Response response) throws IOException {
        try (response) {
          async.complete(response.body().string());
        }
      }

      @Override
      public void onFailure(Call call, IOException e) {
        async.completeExceptionally(e);
      }
    });
    System.out.println(async.get());
    // endregion
    client.dispatcher().executorService().shutdown();
    client.connectionPool().evictAll();
    assertEquals(true, async.get().contains("widget"));
  }
}
