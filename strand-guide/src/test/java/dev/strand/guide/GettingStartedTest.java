package dev.strand.guide;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.Client;
import dev.strand.Limits;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.Response;
import dev.strand.Timeout;
import dev.strand.testkit.TestServerExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The guide's first page (docs/guide/index.md): each region is shown there, and runs here against the testkit. */
class GettingStartedTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @Test
  void firstCall() {
    String base = server.get().baseUri().toString();
    // region first-call
    try (Client client = Client.create()) {
      Response response = client.get(base + "/small");
      System.out.println(response.status() + " " + response.text());
    }
    // endregion
  }

  @Test
  void configuredClient() throws Exception {
    String base = server.get().baseUri().toString();
    // region configured-client
    try (Client client = Client.builder()
        .baseUrl(base)                                    // relative URLs resolve against it
        .timeout(Timeout.DEFAULT.withRead(Duration.ofSeconds(30)))
        .limits(Limits.ofConnections(200))
        .header("Accept", "application/json")             // sent on every request
        .build()) {
      Response blocking = client.get("/small");            // blocks: cheap on a virtual thread
      CompletableFuture<Response> async = client.async().get("/small");   // the same call
      System.out.println(blocking.status() + " and " + async.get().status());
    }
    // endregion
  }

  @Test
  void requestValue() {
    String base = server.get().baseUri().toString();
    // region request
    Request request = Request.builder("POST", base + "/echo")
        .header("X-Trace", "abc")
        .param("page", "2")                                   // ?page=2, encoded for you
        .body(RequestBody.json("{\"name\": \"widget\"}"))
        .timeout(Timeout.of(Duration.ofSeconds(2)))            // this request only
        .build();
    try (Client client = Client.create()) {
      Response response = client.send(request).raiseForStatus(); // HttpStatusException on 4xx and 5xx
      System.out.println(response.text());
    }
    // endregion
    try (Client client = Client.create()) {
      assertEquals(200, client.send(request).status());
    }
  }
}
