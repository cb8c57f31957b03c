package dev.strand.guide;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.testkit.TestServerExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The JDK client's side of the migration notes (docs/guide/migrating.md); the Strand side is {@link ToStrandTest}. */
class FromJdkClientTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @Test
  void jdk() throws Exception {
    String base = server.get().baseUri().toString();
    // region jdk
    try (HttpClient client = HttpClient.newBuilder()
        .connectTimeout(Duration.ofSeconds(5))
        .followRedirects(HttpClient.Redirect.NORMAL)
        .build()) {
      HttpRequest get = HttpRequest.newBuilder(URI.create(base + "/small"))
          .timeout(Duration.ofSeconds(30))                  // until the response head arrives
          .build();
      HttpResponse<String> response = client.send(get, BodyHandlers.ofString());
      System.out.println(response.statusCode() + " " + response.body());

      HttpRequest post = HttpRequest.newBuilder(URI.create(base + "/echo"))
          .header("Content-Type", "application/json")
          .POST(BodyPublishers.ofString("{\"name\": \"widget\"}"))
          .build();
      CompletableFuture<String> async = client.sendAsync(post, BodyHandlers.ofString())
          .thenApply(HttpResponse::body);
      System.out.println(async.join());
    }
    // endregion
    try (HttpClient client = HttpClient.newHttpClient()) {
      assertEquals(200, client.send(HttpRequest.newBuilder(URI.create(base + "/small")).build(),
          BodyHandlers.discarding()).statusCode());
    }
  }
}
