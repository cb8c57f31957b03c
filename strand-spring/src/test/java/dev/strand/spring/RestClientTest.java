package dev.strand.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.ReadTimeoutException;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.net.ServerSocket;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.StreamingHttpOutputMessage;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/** RestClient on Strand: bodies both ways, Spring's own status handling, and failures as Spring expects them. */
@ExtendWith(NettyLeakDetectorExtension.class)
class RestClientTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  private final Client client = Client.builder().cookies(false).build();
  private final StrandClientHttpRequestFactory factory = new StrandClientHttpRequestFactory(client);
  private final RestClient rest = RestClient.builder().requestFactory(factory).baseUrl(server.url("")).build();

  @AfterEach
  void close() {
    client.close();
  }

  @Test
  void getsABody() {
    ResponseEntity<String> r = rest.get().uri("/small").retrieve().toEntity(String.class);
    assertEquals(HttpStatus.OK, r.getStatusCode());
    assertTrue(r.getBody().contains("\"name\": \"widget\""), r.getBody());
    assertEquals(MediaType.APPLICATION_JSON, r.getHeaders().getContentType());
  }

  @Test
  void postsABodyWithItsHeaders() {
    String echo = rest.post().uri("/echo?q=1").contentType(MediaType.TEXT_PLAIN).header("X-Trace", "t1")
        .body("hello strand").retrieve().body(String.class);
    assertTrue(echo.contains("\"method\": \"POST\""), echo);
    assertTrue(echo.contains("\"body\": \"hello strand\""), echo);
    assertTrue(echo.contains("\"bodyLength\": 12"), echo);
    assertTrue(echo.contains("t1"), echo);
    assertTrue(echo.contains("text/plain"), echo);
  }

  @Test
  void streamsAnUploadOfUnknownLength() throws Exception {
    byte[] piece = "0123456789abcdef".repeat(4096).getBytes(StandardCharsets.US_ASCII); // 64 KiB
    int pieces = 64; // 4 MiB, far more than the pipe holds
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    for (int i = 0; i < pieces; i++) {
      sha.update(piece);
    }
    StreamingHttpOutputMessage.Body body = out -> {
      for (int i = 0; i < pieces; i++) {
        out.write(piece);
      }
    };
    String result = rest.post().uri("/sink").contentType(MediaType.APPLICATION_OCTET_STREAM).body(body)
        .retrieve().body(String.class);
    assertTrue(result.contains("\"bytes\": " + (long) piece.length * pieces), result);
    assertTrue(result.contains(HexFormat.of().formatHex(sha.digest())), result);
  }

  @Test
  void aBodyThatFailsMidwayFailsTheCallInsteadOfSendingPartOfIt() {
    StreamingHttpOutputMessage.Body body = out -> {
      out.write(new byte[100_000]);
      throw new IllegalStateException("generator broke");
    };
    ResourceAccessException e = assertThrows(ResourceAccessException.class,
        () -> rest.post().uri("/sink").body(body).retrieve().body(String.class));
    assertTrue(chain(e).contains("generator broke"), chain(e));
  }

  @Test
  void downloadsStreamInBoundedMemory() {
    long size = 32L * 1024 * 1024;
    long read = rest.get().uri("/bytes/" + size).exchange((request, response) -> {
      assertEquals(size, response.getHeaders().getContentLength());
      return Downloads.readPattern(response.getBody());
    });
    assertEquals(size, read);
  }

  @Test
  void connectionsAreReusedAcrossCalls() {
    for (int i = 0; i < 5; i++) {
      rest.get().uri("/small").retrieve().body(String.class);
      rest.post().uri("/echo").body("x").retrieve().toBodilessEntity();
      rest.get().uri("/status/204").retrieve().toBodilessEntity();
    }
    assertEquals(1, client.stats().connectionsOpened());
  }

  @Test
  void statusErrorsAreSpringsOwn() {
    assertThrows(HttpClientErrorException.NotFound.class, () -> rest.get().uri("/status/404").retrieve().body(String.class));
    assertThrows(HttpServerErrorException.ServiceUnavailable.class,
        () -> rest.get().uri("/status/503").retrieve().body(String.class));
    assertEquals(HttpStatus.NOT_FOUND, rest.get().uri("/status/404").retrieve()
        .onStatus(s -> true, (req, res) -> { }).toBodilessEntity().getStatusCode());
  }

  @Test
  void aReadTimeoutIsAnHttpTimeoutException() {
    factory.setReadTimeout(Duration.ofMillis(200));
    ResourceAccessException e = assertThrows(ResourceAccessException.class,
        () -> rest.get().uri("/never").retrieve().body(String.class));
    HttpTimeoutException timeout = assertInstanceOf(HttpTimeoutException.class, e.getCause());
    assertInstanceOf(ReadTimeoutException.class, timeout.getCause());
  }

  @Test
  void aReadTimeoutMidBodyIsAnHttpTimeoutExceptionToo() {
    factory.setReadTimeout(Duration.ofMillis(300));
    // Spring wraps an IOException while a converter reads the body in a plain RestClientException, whatever the client.
    RestClientException e = assertThrows(RestClientException.class,
        () -> rest.get().uri("/drip?bytes=20&interval=1000").retrieve().body(String.class));
    HttpTimeoutException timeout = assertInstanceOf(HttpTimeoutException.class, e.getCause(), chain(e));
    assertInstanceOf(ReadTimeoutException.class, timeout.getCause());
  }

  @Test
  void aRefusedConnectionIsAConnectException() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    RestClient refused = RestClient.builder().requestFactory(factory).build();
    ResourceAccessException e = assertThrows(ResourceAccessException.class,
        () -> refused.get().uri("http://127.0.0.1:" + port + "/").retrieve().body(String.class));
    java.net.ConnectException connect = assertInstanceOf(java.net.ConnectException.class, e.getCause());
    assertInstanceOf(dev.strand.ConnectException.class, connect.getCause());
  }

  @Test
  void timeoutsOnlyChangeThePhasesSet() {
    factory.setConnectTimeout(Duration.ofSeconds(2));
    assertEquals(Duration.ofSeconds(2), factory.timeout().connect());
    assertEquals(dev.strand.Timeout.DEFAULT.read(), factory.timeout().read());
    factory.setTimeout(null);
    assertEquals(null, factory.timeout());
  }

  static String chain(Throwable t) {
    StringBuilder sb = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      sb.append(c).append(" <- ");
    }
    return sb.toString();
  }
}
