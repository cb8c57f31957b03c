package dev.strand.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.ReadTimeoutException;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.net.http.HttpTimeoutException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.reactive.function.client.WebClientResponseException;
import reactor.core.publisher.Flux;

/** WebClient on Strand: bodies streamed both ways with demand, cancellation, statuses and failures. */
@ExtendWith(NettyLeakDetectorExtension.class)
class WebClientTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  private static final Duration WAIT = Duration.ofSeconds(20);

  private final Client client = Client.builder().cookies(false).build();
  private final StrandClientHttpConnector connector = new StrandClientHttpConnector(client);
  private final WebClient web = WebClient.builder().clientConnector(connector).baseUrl(server.url("")).build();

  @AfterEach
  void close() {
    client.close();
  }

  @Test
  void getsABody() {
    ResponseEntity<String> r = web.get().uri("/small").retrieve().toEntity(String.class).block(WAIT);
    assertEquals(HttpStatus.OK, r.getStatusCode());
    assertTrue(r.getBody().contains("widget"), r.getBody());
    assertEquals(MediaType.APPLICATION_JSON, r.getHeaders().getContentType());
  }

  @Test
  void postsABodyWithItsHeadersAndCookies() {
    String echo = web.post().uri("/echo").contentType(MediaType.TEXT_PLAIN).header("X-Trace", "t2")
        .cookie("session", "abc").bodyValue("hello reactive").retrieve().bodyToMono(String.class).block(WAIT);
    assertTrue(echo.contains("\"body\": \"hello reactive\""), echo);
    assertTrue(echo.contains("t2"), echo);
    assertTrue(echo.contains("session=abc"), echo);
  }

  @Test
  void streamsAnUploadOnDemand() throws Exception {
    byte[] piece = new byte[32 * 1024];
    for (int i = 0; i < piece.length; i++) {
      piece[i] = (byte) i;
    }
    int pieces = 128; // 4 MiB
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    for (int i = 0; i < pieces; i++) {
      sha.update(piece);
    }
    AtomicLong maxOutstanding = new AtomicLong();
    AtomicLong requested = new AtomicLong();
    AtomicLong emitted = new AtomicLong();
    Flux<DataBuffer> body = Flux.range(0, pieces)
        .<DataBuffer>map(i -> DefaultDataBufferFactory.sharedInstance.wrap(piece.clone()))
        .doOnRequest(n -> maxOutstanding.accumulateAndGet(requested.addAndGet(n) - emitted.get(), Math::max))
        .doOnNext(b -> emitted.incrementAndGet());
    String result = web.post().uri("/sink").contentType(MediaType.APPLICATION_OCTET_STREAM)
        .body(body, DataBuffer.class).retrieve().bodyToMono(String.class).block(WAIT);
    assertTrue(result.contains("\"bytes\": " + (long) piece.length * pieces), result);
    assertTrue(result.contains(HexFormat.of().formatHex(sha.digest())), result);
    assertTrue(maxOutstanding.get() <= 2, "demand ran ahead of the upload: " + maxOutstanding.get());
  }

  @Test
  void streamsADownloadChunkByChunk() {
    long size = 16L * 1024 * 1024;
    AtomicLong offset = new AtomicLong();
    long chunks = web.get().uri("/bytes/" + size).retrieve().bodyToFlux(DataBuffer.class)
        .map(b -> {
          byte[] bytes = new byte[b.readableByteCount()];
          b.read(bytes);
          DataBufferUtils.release(b);
          assertTrue(Downloads.matchesPattern(bytes, offset.getAndAdd(bytes.length)));
          return bytes.length;
        })
        .count().block(WAIT);
    assertEquals(size, offset.get());
    assertTrue(chunks > 1, "one chunk for 16 MiB: not streamed");
  }

  @Test
  void cancellingTheBodyClosesTheResponse() throws Exception {
    DataBuffer first = web.get().uri("/chunked/100000000").retrieve().bodyToFlux(DataBuffer.class)
        .next().block(WAIT);
    DataBufferUtils.release(first);
    awaitIdle();
    // A cancelled exchange loses its connection, and the next call works on a new one.
    assertTrue(web.get().uri("/small").retrieve().bodyToMono(String.class).block(WAIT).contains("widget"));
    assertEquals(2, client.stats().connectionsOpened());
  }

  @Test
  void cancellingBeforeTheResponseClosesItWhenItComes() throws Exception {
    web.get().uri("/delay/300").retrieve().bodyToMono(String.class).timeout(Duration.ofMillis(50))
        .onErrorResume(java.util.concurrent.TimeoutException.class, e -> reactor.core.publisher.Mono.empty())
        .block(WAIT);
    Thread.sleep(500); // the response arrives after the subscriber left
    awaitIdle();
  }

  @Test
  void connectionsAreReused() {
    for (int i = 0; i < 5; i++) {
      web.get().uri("/small").retrieve().bodyToMono(String.class).block(WAIT);
      web.post().uri("/echo").bodyValue("x").retrieve().toBodilessEntity().block(WAIT);
    }
    assertEquals(1, client.stats().connectionsOpened());
  }

  @Test
  void responsesAreReadWholeOneAfterAnotherOnOneConnection() {
    for (int i = 0; i < 50; i++) {
      byte[] body = web.get().uri("/bytes/200000").retrieve().bodyToMono(byte[].class).block(WAIT);
      assertEquals(200_000, body.length);
      assertTrue(Downloads.matchesPattern(body, 0));
    }
    assertEquals(1, client.stats().connectionsOpened());
  }

  @Test
  void statusErrorsAreSpringsOwn() {
    WebClientResponseException e = assertThrows(WebClientResponseException.NotFound.class,
        () -> web.get().uri("/status/404").retrieve().bodyToMono(String.class).block(WAIT));
    assertEquals(404, e.getStatusCode().value());
  }

  @Test
  void aReadTimeoutIsAnHttpTimeoutException() {
    connector.setReadTimeout(Duration.ofMillis(200));
    WebClientRequestException e = assertThrows(WebClientRequestException.class,
        () -> web.get().uri("/never").retrieve().bodyToMono(String.class).block(WAIT));
    HttpTimeoutException timeout = assertInstanceOf(HttpTimeoutException.class, e.getCause());
    assertInstanceOf(ReadTimeoutException.class, timeout.getCause());
  }

  @Test
  void responseCookiesAreParsed() {
    var cookies = web.get().uri("/cookies/set?name=v&flavour=oat")
        .exchangeToMono(r -> r.releaseBody().thenReturn(r.cookies())).block(WAIT);
    assertEquals("v", cookies.getFirst("name").getValue());
    assertEquals("/", cookies.getFirst("name").getPath());
    assertEquals("oat", cookies.getFirst("flavour").getValue());
  }

  private void awaitIdle() throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (client.stats().inUse() != 0) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("a connection is still in use: " + client.stats());
      }
      Thread.sleep(10);
    }
  }
}
