package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The wire log: what each level shows, that no secret reaches it at any level, and large bodies. */
@ExtendWith(NettyLeakDetectorExtension.class)
class HttpLoggingTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  private static final List<String> SECRETS = List.of("s3cr3t-token", "sid-9876", "k3y-value", "pa55word", "t0p-session",
      "X-Api-Key-Value");

  private static MockTransport answering() {
    return MockTransport.of(r -> Response.builder(200).header("Set-Cookie", "session=t0p-session; HttpOnly")
        .header("Content-Type", "application/json").body("{\"ok\": true}").build());
  }

  private static Request secretRequest() {
    return Request.builder("POST", "http://user:pa55word@127.0.0.1/api?api_key=k3y-value&page=2")
        .header("Authorization", "Bearer s3cr3t-token")
        .header("Cookie", "sid=sid-9876")
        .header("X-Api-Key", "X-Api-Key-Value")
        .body(RequestBody.json("{\"q\": 1}"))
        .build();
  }

  @Test
  void noSecretReachesTheLogAtAnyLevel() {
    for (HttpLogging.Level level : HttpLogging.Level.values()) {
      List<String> lines = new CopyOnWriteArrayList<>();
      HttpLogging log = HttpLogging.builder().level(level).redactHeader("x-api-key").redactQueryParameter("api_key")
          .sink(lines::add).build();
      try (Client client = Client.builder().transport(answering()).interceptor(log).networkInterceptor(log).build()) {
        assertEquals(200, client.send(secretRequest()).status());
      }
      String all = String.join("\n", lines);
      for (String secret : SECRETS) {
        assertFalse(all.contains(secret), level + " leaked " + secret + ":\n" + all);
      }
      if (level != HttpLogging.Level.NONE) {
        // URL credentials left the URL before the chain (they become Basic auth), so none is logged
        assertTrue(all.contains("--> POST http://127.0.0.1/api?api_key=REDACTED&page=2"), all);
        assertTrue(all.contains("<-- 200 OK"), all);
      }
      if (level.compareTo(HttpLogging.Level.HEADERS) >= 0) {
        assertTrue(all.contains("Authorization: <redacted>") && all.contains("Set-Cookie: <redacted>"), all);
        assertTrue(all.contains("X-Api-Key: <redacted>"), all);
      }
      if (level == HttpLogging.Level.BODY) {
        assertTrue(all.contains("{\"q\": 1}") && all.contains("{\"ok\": true}"), all);
      } else {
        assertFalse(all.contains("{\"ok\": true}"), all);
      }
    }
  }

  @Test
  void userInformationAndNamedParametersAreRedactedInUrls() {
    HttpLogging log = HttpLogging.builder().redactQueryParameter("api_key").build();
    assertEquals("http://***@h/x?api_key=REDACTED&b=2#f",
        log.url(java.net.URI.create("http://u:pa55word@h/x?api_key=k3y&b=2#f")));
  }

  @Test
  void noRedactionShowsEverythingForADebuggingSession() {
    List<String> lines = new CopyOnWriteArrayList<>();
    HttpLogging log = HttpLogging.builder().level(HttpLogging.Level.HEADERS).noRedaction().sink(lines::add).build();
    try (Client client = Client.builder().transport(answering()).interceptor(log).build()) {
      client.send(secretRequest());
    }
    assertTrue(String.join("\n", lines).contains("Bearer s3cr3t-token"));
  }

  @Test
  void aLargeStreamedBodyLogsItsCapAndSizeAsItIsRead() {
    List<String> lines = new CopyOnWriteArrayList<>();
    HttpLogging log = HttpLogging.builder().level(HttpLogging.Level.BODY).maxBodyBytes(100).sink(lines::add).build();
    try (Client client = Client.builder().interceptor(log).build();
        StreamingResponse r = client.stream(Request.get(server.url("/stream/20000")))) {
      assertFalse(lines.stream().anyMatch(l -> l.startsWith("<-- END")), "nothing is logged before it is read");
      long read = 0;
      for (byte[] chunk : r.chunks()) {
        read += chunk.length;
      }
      long total = read;
      assertTrue(lines.stream().anyMatch(l -> l.equals("<-- END HTTP (" + total + "-byte body)")), lines.toString());
      String body = lines.stream().filter(l -> l.contains("(first 100 of " + total + " bytes)")).findFirst().orElseThrow();
      assertTrue(body.length() < 200, body);
    }
  }

  @Test
  void binaryAndEncodedBodiesAreSummarised() {
    List<String> lines = new CopyOnWriteArrayList<>();
    HttpLogging log = HttpLogging.builder().level(HttpLogging.Level.BODY).sink(lines::add).build();
    try (Client client = Client.builder().networkInterceptor(log).build()) {
      client.get(server.url("/bytes/5000"));
      client.get(server.url("/gzip"));
    }
    assertTrue(lines.contains("(5000-byte binary body not logged)"), lines.toString());
    assertTrue(lines.stream().anyMatch(l -> l.matches("\\(\\d+-byte gzip-encoded body not logged\\)")), lines.toString());
  }

  @Test
  void aFailureIsLogged() {
    List<String> lines = new CopyOnWriteArrayList<>();
    HttpLogging log = HttpLogging.builder().sink(lines::add).build();
    try (Client client = Client.builder().interceptor(log)
        .timeout(Timeout.DEFAULT.withRead(java.time.Duration.ofMillis(200))).build()) {
      try {
        client.get(server.url("/never"));
      } catch (ReadTimeoutException expected) {
        // logged below
      }
    }
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("<-- HTTP FAILED: ReadTimeoutException")), lines.toString());
  }
}
