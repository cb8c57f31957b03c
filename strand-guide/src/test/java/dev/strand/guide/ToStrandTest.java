package dev.strand.guide;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.Interceptor;
import dev.strand.RequestBody;
import dev.strand.Response;
import dev.strand.Timeout;
import dev.strand.testkit.TestServerExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The Strand side of each migration (docs/guide/migrating.md): the same calls as the From*Test classes. */
class ToStrandTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @Test
  void strand() {
    String base = server.get().baseUri().toString();
    // region strand
    Interceptor bearer = chain -> chain.proceed(chain.request().toBuilder()
        .setHeader("Authorization", "Bearer t0k3n").build());
    try (Client client = Client.builder()
        .timeout(Timeout.DEFAULT.withRead(Duration.ofSeconds(30)).withCall(Duration.ofSeconds(60)))
        .interceptor(bearer)
        .build()) {
      Response response = client.get(base + "/small");      // the body is read; nothing to close
      System.out.println(response.status() + " " + response.text());

      CompletableFuture<String> async = client.async()
          .post(base + "/echo", RequestBody.json("{\"name\": \"widget\"}"))
          .thenApply(Response::text);
      System.out.println(async.join());
    }
    // endregion
    try (Client client = Client.create()) {
      assertTrue(client.post(base + "/echo", RequestBody.json("{\"name\": \"widget\"}")).text().contains("widget"));
    }
  }
}
