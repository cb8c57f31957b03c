package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link Request#toCurl}: the text, and real curl run with it repeating what Strand sends to the testkit's /echo. */
@ExtendWith(NettyLeakDetectorExtension.class)
class ToCurlTest {
  private static TestServer server;
  private static Client client;

  @BeforeAll
  static void start() {
    server = TestServer.start();
    client = Client.builder().build();
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  @Test
  void curlRepeatsMethodPathHeadersAndTextBody() throws Exception {
    String body = "it's a \"body\"\nwith $HOME, `backticks`, \\ and ünïcødé\ttab";
    Request request = Request.builder("PATCH", server.url("/echo?q=a%20b&x=1"))
        .header("X-Quote", "it's 'quoted' $(not run)")
        .header("X-Twice", "one")
        .header("X-Twice", "two")
        .header("Authorization", "Bearer secret-token")
        .header("User-Agent", "strand-test")
        .header("Accept", "application/json")
        .body(RequestBody.of(body))
        .build();
    assertSameEcho(request, request.toCurl(true));
  }

  @Test
  void curlRepeatsBodiesWithoutContentTypeAndLeadingAt() throws Exception {
    Request request = Request.builder("POST", server.url("/echo"))
        .header("User-Agent", "strand-test").header("Accept", "*/*").header("X-Empty", "")
        .body(RequestBody.of("@not-a-file".getBytes(StandardCharsets.UTF_8)))
        .build();
    String curl = request.toCurl();
    assertTrue(curl.contains("-H 'Content-Type:'"), curl);
    assertTrue(curl.contains("--data-raw '@not-a-file'"), curl);
    assertSameEcho(request, curl);
  }

  @Test
  void headUsesHeadOptionAndGetHasNoMethod() {
    assertEquals("curl --head 'http://h/x'", Request.builder("HEAD", "http://h/x").build().toCurl());
    assertEquals("curl 'http://h/x'", Request.get("http://h/x").toCurl());
    assertEquals("curl -X DELETE 'http://h/x'", Request.builder("DELETE", "http://h/x").build().toCurl());
  }

  @Test
  void secretsAreRedactedUnlessAsked() {
    Request request = Request.builder("GET", "https://alice:pa55@h.example/x")
        .header("Authorization", "Basic YWxpY2U6cGE1NQ==")
        .header("Proxy-Authorization", "opaque")
        .header("Cookie", "session=abc")
        .header("X-Other", "visible")
        .build();
    String redacted = request.toCurl();
    assertEquals("curl 'https://alice:REDACTED@h.example/x' -H 'Authorization: Basic REDACTED'"
        + " -H 'Proxy-Authorization: REDACTED' -H 'Cookie: REDACTED' -H 'X-Other: visible'", redacted);
    for (String secret : List.of("pa55", "YWxpY2U6cGE1NQ==", "opaque", "abc")) {
      assertFalse(redacted.contains(secret), secret);
      assertTrue(request.toCurl(true).contains(secret), secret);
    }
  }

  @Test
  void binaryAndStreamedBodiesBecomeAFilePlaceholder() {
    Request binary = Request.builder("PUT", "http://h/x").body(RequestBody.of(new byte[] {0, 1, (byte) 0xff})).build();
    assertEquals("curl -X PUT 'http://h/x' -H 'Content-Type:' --data-binary '@request-body.bin'", binary.toCurl());
    Request streamed = Request.builder("POST", "http://h/x")
        .body(RequestBody.ofInputStream(new ByteArrayInputStream(new byte[] {'a'}), "text/plain")).build();
    assertEquals("curl 'http://h/x' -H 'Content-Type: text/plain' --data-binary '@request-body.bin'",
        streamed.toCurl());
  }

  /** Sends {@code request} with Strand and {@code curl} with the shell; the echoes agree. */
  @SuppressWarnings("unchecked")
  private static void assertSameEcho(Request request, String curl) throws Exception {
    Map<String, Object> strand = client.send(request).json(Map.class);
    Process p = new ProcessBuilder("sh", "-c", curl + " --silent --show-error").start();
    byte[] out = p.getInputStream().readAllBytes();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), err);
    Map<String, Object> viaCurl = Response.builder(200).json(new String(out, StandardCharsets.UTF_8)).build()
        .json(Map.class);
    for (String key : List.of("method", "path", "query", "body", "bodyLength")) {
      assertEquals(strand.get(key), viaCurl.get(key), key);
    }
    Map<String, List<String>> sent = (Map<String, List<String>>) strand.get("headers");
    Map<String, List<String>> curled = (Map<String, List<String>>) viaCurl.get("headers");
    for (String name : request.headers().toMap().keySet()) {
      assertEquals(sent.get(name), curled.get(name), name);
    }
    assertEquals(sent.get("Content-Type"), curled.get("Content-Type"));
  }
}
