package dev.strand.guide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Auth;
import dev.strand.CallTimeoutException;
import dev.strand.Client;
import dev.strand.EventListener;
import dev.strand.EventStream;
import dev.strand.HttpException;
import dev.strand.HttpLogging;
import dev.strand.HttpStatusException;
import dev.strand.Interceptor;
import dev.strand.MockTransport;
import dev.strand.Multipart;
import dev.strand.ReadTimeoutException;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.Response;
import dev.strand.ResponseHead;
import dev.strand.RetryPolicy;
import dev.strand.ServerSentEvent;
import dev.strand.StreamingResponse;
import dev.strand.Timeout;
import dev.strand.TypeRef;
import dev.strand.WebSocket;
import dev.strand.testkit.TestServerExtension;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The guide's recipes (docs/guide/recipes.md): one test per recipe, each run against the testkit server. */
class RecipesTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @TempDir
  Path dir;

  // region echo-record
  record Echo(String method, String path, String body) {}
  // endregion

  @Test
  void synchronousGet() {
    String base = server.get().baseUri().toString();
    // region sync-get
    try (Client client = Client.create()) {
      Response response = client.get(base + "/small");
      if (response.status() != 200) {
        throw new IllegalStateException("unexpected " + response);
      }
      response.headers().forEach((name, value) -> System.out.println(name + ": " + value));
      System.out.println(response.text());
    }
    // endregion
  }

  @Test
  void asynchronousGet() {
    String base = server.get().baseUri().toString();
    // region async-get
    try (Client client = Client.create()) {
      CompletableFuture<String> body = client.async().get(base + "/small")
          .thenApply(Response::raiseForStatus)
          .thenApply(Response::text);
      System.out.println(body.join());   // or compose further: no thread waits meanwhile
    }
    // endregion
  }

  @Test
  void headers() {
    String base = server.get().baseUri().toString();
    // region headers
    try (Client client = Client.builder().userAgent("my-app/1.0").build()) {
      Request request = Request.builder("GET", base + "/headers")
          .header("Accept", "application/json")
          .header("X-Tag", "one")
          .header("X-Tag", "two")                  // header() adds, setHeader() replaces
          .build();
      Response response = client.send(request);
      System.out.println(response.headers().first("Content-Type"));
      System.out.println(response.headers().all("Content-Type"));
    }
    // endregion
  }

  @Test
  void postString() {
    String base = server.get().baseUri().toString();
    // region post-string
    try (Client client = Client.create()) {
      String markdown = "# Release notes\n\n * faster\n * smaller\n";
      Response response = client.post(base + "/echo", RequestBody.of(markdown, "text/markdown; charset=utf-8"));
      System.out.println(response.text());
    }
    // endregion
  }

  @Test
  void postStream() throws Exception {
    String base = server.get().baseUri().toString();
    Path file = Files.writeString(dir.resolve("report.csv"), "a,b\n1,2\n");
    // region post-stream
    try (Client client = Client.create();
        InputStream in = Files.newInputStream(file)) {
      // length unknown: sent chunked (HTTP/1.1) or as DATA frames (HTTP/2), never buffered whole
      Response fromStream = client.post(base + "/sink", RequestBody.ofInputStream(in, "text/csv"));
      // a file has a known length and can be sent again (a retry, a redirect)
      Response fromFile = client.post(base + "/sink", RequestBody.ofFile(file, "text/csv"));
      System.out.println(fromStream.text() + " " + fromFile.text());
    }
    // endregion
  }

  @Test
  void postForm() {
    String base = server.get().baseUri().toString();
    // region post-form
    try (Client client = Client.create()) {
      Response response = client.post(base + "/echo", RequestBody.form(Map.of("search", "Jurassic Park")));
      System.out.println(response.text());   // the body is search=Jurassic+Park
    }
    // endregion
    try (Client client = Client.create()) {
      assertTrue(client.post(base + "/echo", RequestBody.form(Map.of("search", "Jurassic Park"))).text()
          .contains("search=Jurassic+Park"));
    }
  }

  @Test
  void postMultipart() throws Exception {
    String base = server.get().baseUri().toString();
    Path logo = Files.write(dir.resolve("logo.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G'});
    // region post-multipart
    RequestBody form = Multipart.builder()
        .field("title", "Square Logo")
        .file("image", logo, "image/png")       // streamed from disk when sent
        .build();
    try (Client client = Client.create()) {
      Response response = client.post(base + "/sink", form);
      System.out.println(response.text());
    }
    // endregion
  }

  @Test
  void json() {
    String base = server.get().baseUri().toString();
    // region json
    try (Client client = Client.create()) {
      // any object out (RequestBody.jsonOf), a record or a generic type back (Response.json)
      Echo echo = client.post(base + "/echo", RequestBody.jsonOf(Map.of("name", "widget"))).json(Echo.class);
      System.out.println(echo.method() + " " + echo.body());
      Map<String, Object> fields = client.post(base + "/echo", RequestBody.json("{}"))
          .json(new TypeRef<Map<String, Object>>() {});
      System.out.println(fields.keySet());
    }
    // endregion
  }

  @Test
  void streamingDownload() throws Exception {
    String base = server.get().baseUri().toString();
    Path target = dir.resolve("download.bin");
    // region streaming-download
    try (Client client = Client.create();
        StreamingResponse response = client.stream(Request.get(base + "/bytes/1000000"));
        OutputStream out = Files.newOutputStream(target)) {
      if (response.status() != 200) {
        throw new IllegalStateException("unexpected " + response);
      }
      response.body().transferTo(out);   // bytes are pulled as you read: memory stays bounded
    }                                     // closing the response returns the connection to the pool
    // endregion
    assertEquals(1_000_000, Files.size(target));
  }

  @Test
  void timeouts() {
    String base = server.get().baseUri().toString();
    // region timeouts
    Timeout timeout = Timeout.builder()
        .connect(Duration.ofSeconds(2))   // TCP and TLS
        .read(Duration.ofSeconds(1))      // each silence while waiting for bytes
        .write(Duration.ofSeconds(10))
        .pool(Duration.ofSeconds(1))      // waiting for a free connection
        .build();
    try (Client client = Client.builder().timeout(timeout).build()) {
      client.get(base + "/never");
    } catch (ReadTimeoutException e) {   // also a TimeoutException and a TransportException
      System.err.println(e.getMessage());
    }
    // endregion
    try (Client client = Client.builder().timeout(timeout).build()) {
      assertThrows(ReadTimeoutException.class, () -> client.get(base + "/never"));
    }
  }

  @Test
  void callTimeout() {
    String base = server.get().baseUri().toString();
    // region call-timeout
    Request slow = Request.builder("GET", base + "/drip?bytes=100&interval=200")   // 20 s in all
        .timeout(Timeout.DEFAULT.withCall(Duration.ofSeconds(1)))   // the whole call, body included
        .build();
    try (Client client = Client.create()) {
      client.send(slow);
    } catch (CallTimeoutException e) {
      System.err.println(e.getMessage());
    }
    // endregion
    try (Client client = Client.create()) {
      assertThrows(CallTimeoutException.class, () -> client.send(slow));
    }
  }

  @Test
  void perCallSettings() {
    String base = server.get().baseUri().toString();
    // region per-call
    try (Client client = Client.builder().timeout(Timeout.of(Duration.ofSeconds(5))).build()) {
      Request quick = Request.builder("GET", base + "/delay/100")
          .timeout(Timeout.of(Duration.ofMillis(50)))     // this request only; the client keeps its 5 s
          .build();
      try {
        client.send(quick);
      } catch (ReadTimeoutException e) {
        System.out.println("quick one timed out");
      }
      System.out.println(client.get(base + "/delay/100").status());   // 200 under the client's timeouts
    }
    // endregion
  }

  @Test
  void errors() {
    String base = server.get().baseUri().toString();
    // region errors
    try (Client client = Client.create()) {
      Response notFound = client.get(base + "/status/404");   // a status is not an exception...
      System.out.println(notFound.status());
      notFound.raiseForStatus();                              // ...unless you ask
    } catch (HttpStatusException e) {
      System.err.println(e.response().status() + " for " + e.request().url());
    } catch (HttpException e) {                                // the root: timeouts, connect, TLS, protocol
      System.err.println(e.getMessage());
    }
    // endregion
  }

  @Test
  void redirects() {
    String base = server.get().baseUri().toString();
    // region redirects
    try (Client client = Client.builder().followRedirects(true).maxRedirects(5).build()) {
      Response response = client.get(base + "/redirect/2");
      System.out.println(response.request().url() + " after " + response.history().size() + " redirects");
    }
    // endregion
    try (Client client = Client.builder().followRedirects(true).build()) {
      assertEquals(2, client.get(base + "/redirect/2").history().size());
    }
  }

  @Test
  void authentication() {
    String base = server.get().baseUri().toString();
    // region auth
    try (Client client = Client.builder().auth(Auth.basic("user", "passwd")).build()) {
      System.out.println(client.get(base + "/basic-auth/user/passwd").text());
    }
    // Auth.bearer(token), Auth.digest(user, password) (answers the 401's challenge), Auth.netrc()
    // endregion
    try (Client client = Client.builder().auth(Auth.basic("user", "passwd")).build()) {
      assertEquals(200, client.get(base + "/basic-auth/user/passwd").status());
    }
  }

  @Test
  void retries() {
    String base = server.get().baseUri().toString();
    // region retries
    RetryPolicy retry = RetryPolicy.defaults().toBuilder()   // 3 attempts, jittered back-off, idempotent only
        .maxAttempts(4)
        .onRetry(r -> System.err.println("retrying " + r.request() + " after " + r.reason()))
        .build();
    try (Client client = Client.builder().retry(retry).build()) {
      Response response = client.get(base + "/status/503");   // tried 4 times, then the last 503 comes back
      System.out.println(response.status());
    }
    // endregion
  }

  @Test
  void interceptors() {
    String base = server.get().baseUri().toString();
    // region interceptor
    Interceptor bearer = chain -> chain.proceed(chain.request().toBuilder()
        .setHeader("Authorization", "Bearer " + "t0k3n")
        .build());
    Interceptor timing = chain -> {
      long start = System.nanoTime();
      return chain.proceed(chain.request()).whenComplete((response, failure) ->
          System.out.printf("%s in %d µs%n", chain.request().url(), (System.nanoTime() - start) / 1_000));
    };
    try (Client client = Client.builder()
        .interceptor(bearer)             // once per call, sees the final decoded response
        .networkInterceptor(timing)      // once per exchange: each redirect hop and retry
        .build()) {
      System.out.println(client.get(base + "/bearer").text());   // {"authenticated": true, ...}
    }
    // endregion
    try (Client client = Client.builder().interceptor(bearer).build()) {
      assertEquals(200, client.get(base + "/bearer").status());
    }
  }

  @Test
  void logging() {
    String base = server.get().baseUri().toString();
    // region logging
    HttpLogging wire = HttpLogging.builder()
        .level(HttpLogging.Level.HEADERS)
        .redactHeader("X-Api-Key")          // Authorization, Cookie and Set-Cookie always are
        .build();
    try (Client client = Client.builder().networkInterceptor(wire).build()) {
      client.get(base + "/small");          // lines go to the System.Logger "dev.strand.wire"
    }
    // endregion
  }

  @Test
  void events() {
    String base = server.get().baseUri().toString();
    AtomicInteger heard = new AtomicInteger();
    // region event-listener
    EventListener firstByte = new EventListener() {
      @Override
      public void responseHeadersReceived(Call call, long nanos, ResponseHead head) {
        System.out.println(call.request().url() + ": first byte after "
            + (nanos - call.startNanos()) / 1_000 + " µs");
        heard.incrementAndGet();
      }
    };
    try (Client client = Client.builder().eventListener(firstByte).build()) {
      client.get(base + "/small");
    }
    // endregion
    assertEquals(1, heard.get());
  }

  @Test
  void serverSentEvents() {
    String base = server.get().baseUri().toString();
    List<String> seen = new ArrayList<>();
    // region sse
    try (Client client = Client.create();
        EventStream events = client.events(base + "/sse?count=3")) {
      for (ServerSentEvent event : events) {      // ends when the server ends the stream
        System.out.println(event.event() + " #" + event.id() + ": " + event.data());
        seen.add(event.id());
      }
    }
    // endregion
    assertEquals(List.of("1", "2", "3"), seen);
  }

  @Test
  void webSocket() throws Exception {
    String base = server.get().baseUri().toString().replaceFirst("^http", "ws");
    CompletableFuture<String> reply = new CompletableFuture<>();
    // region websocket
    try (Client client = Client.create()) {
      WebSocket ws = client.websocket(base + "/ws/echo", new WebSocket.Listener() {
        @Override
        public void onText(WebSocket socket, String text) {   // on an I/O thread: do not block here
          reply.complete(text);
        }
      });
      ws.sendText("hello");
      System.out.println(reply.get(5, TimeUnit.SECONDS));
      ws.close(1000, "done").get(5, TimeUnit.SECONDS);
    }
    // endregion
    assertEquals("hello", reply.join());
  }

  @Test
  void mockTransport() {
    // region mock-transport
    MockTransport mock = MockTransport.of(request -> switch (request.url().getPath()) {
      case "/user" -> Response.builder(200).json("{\"name\": \"Ada\"}").build();
      default -> Response.builder(404).build();
    });
    try (Client client = Client.builder().transport(mock).build()) {
      // your code under test gets this client: redirects, cookies, auth and decoding run for real
      assertEquals(200, client.get("https://api.example/user").status());
      assertEquals(404, client.get("https://api.example/nothing").status());
      assertEquals(2, mock.requests().size());
    }
    // endregion
  }
}
