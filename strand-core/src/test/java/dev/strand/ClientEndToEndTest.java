package dev.strand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServer;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The client's policies over a real connection to the testkit server (NettyTransport). */
@ExtendWith(NettyLeakDetectorExtension.class)
class ClientEndToEndTest {
  private static TestServer server;
  private static Client client;

  @BeforeAll
  static void start() {
    server = TestServer.start();
    client = Client.builder().baseUrl(server.baseUri().toString()).followRedirects(true).build();
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  @Test
  void gzipAndDeflateAreDecoded() throws IOException {
    Response gzip = client.get("/gzip");
    assertArrayEquals(Payloads.GZIP_JSON, gzip.bytes());
    assertFalse(gzip.headers().contains("Content-Encoding"));
    assertArrayEquals(Payloads.DEFLATE_JSON, client.get("/deflate").bytes());
    try (StreamingResponse r = client.stream(Request.get("/gzip")); InputStream in = r.body()) {
      assertArrayEquals(Payloads.GZIP_JSON, in.readAllBytes());
    }
  }

  @Test
  void redirectChainEndsAtEchoWithHistory() {
    Response r = client.get("/redirect/3");
    assertEquals(200, r.status());
    assertEquals("/echo", r.request().url().getPath());
    assertEquals(3, r.history().size());
    assertEquals(302, r.history().get(0).status());
  }

  @Test
  void cookiesSetOnARedirectAreSentToItsTarget() {
    try (Client fresh = Client.builder().baseUrl(server.baseUri().toString()).followRedirects(true).build()) {
      Response r = fresh.get("/cookies/set?flavour=oat&size=big");
      @SuppressWarnings("unchecked")
      Map<String, String> cookies = (Map<String, String>) r.json(Map.class).get("cookies");
      assertEquals(Map.of("flavour", "oat", "size", "big"), cookies);
      assertEquals(2, fresh.cookies().size());
    }
  }

  @Test
  void basicAndBearerAuth() {
    try (Client basic = Client.builder().baseUrl(server.baseUri().toString()).auth(Auth.basic("ann", "s3cret")).build()) {
      assertEquals(200, basic.get("/basic-auth/ann/s3cret").status());
      assertEquals(401, basic.get("/basic-auth/ann/other").status());
    }
    try (Client bearer = Client.builder().baseUrl(server.baseUri().toString()).auth(Auth.bearer("tok")).build()) {
      assertEquals("tok", bearer.get("/bearer").json(Map.class).get("token"));
    }
  }

  @Test
  void defaultsReachTheServer() {
    @SuppressWarnings("unchecked")
    Map<String, Object> echo = client.send(Request.builder("QUERY", "/echo").param("q", "1")
        .body(RequestBody.json("{\"find\": true}")).build()).json(Map.class);
    assertEquals("QUERY", echo.get("method"));
    assertEquals("{\"find\": true}", echo.get("body"));
    @SuppressWarnings("unchecked")
    Map<String, Object> headers = (Map<String, Object>) echo.get("headers");
    String all = headers.toString().toLowerCase();
    assertTrue(all.contains("user-agent=[strand/"), all);
    assertTrue(all.contains("accept-encoding=[gzip, deflate"), all);
    assertTrue(all.contains("content-type=[application/json]"), all);
  }
}
