package dev.strand.internal.http1;

import dev.strand.spi.StreamingResponses;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.HttpException;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.StreamingResponse;
import dev.strand.Version;
import dev.strand.internal.exchange.NettyResponseBody;
import dev.strand.testkit.NettyLeakDetectorExtension;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Request framing and response handling of one connection, on an EmbeddedChannel. */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http1CodecTest {
  final EmbeddedHttp1 h = new EmbeddedHttp1(64 * 1024);

  @AfterEach
  void close() {
    h.close();
  }

  static Throwable failure(CompletableFuture<?> f) {
    assertTrue(f.isDone(), "should have completed");
    try {
      f.get();
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    throw new AssertionError("expected a failure");
  }

  @Test
  void getIsFramedWithHostAndNoBody() {
    h.send(EmbeddedHttp1.request("GET", "/a/b?q=1&r=%20").header("Accept", "text/plain").build());
    assertEquals("GET /a/b?q=1&r=%20 HTTP/1.1\r\nHost: example.test:8080\r\nAccept: text/plain\r\n\r\n", h.written());
  }

  @Test
  void aBodyInMemoryGoesWithTheHeadAndTheUsersFramingIsReplaced() {
    h.send(EmbeddedHttp1.request("POST", "/p").header("Content-Length", "999").header("Host", "other")
        .body(RequestBody.of("hi")).build());
    assertEquals("POST /p HTTP/1.1\r\nHost: other\r\nContent-Length: 2\r\n\r\nhi", h.written());
  }

  @Test
  void aPostWithoutBodySaysContentLengthZero() {
    h.send(EmbeddedHttp1.request("POST", "").build());
    assertEquals("POST / HTTP/1.1\r\nHost: example.test:8080\r\nContent-Length: 0\r\n\r\n", h.written());
  }

  @Test
  void responseHeadAndBodyInOneReadCompleteTogether() throws Exception {
    CompletableFuture<StreamingResponse> f = h.send(EmbeddedHttp1.request("GET", "/").build());
    h.written();
    h.receive("HTTP/1.1 201 Made\r\nContent-Length: 5\r\nX-A: 1\r\n\r\nhello");
    StreamingResponse r = f.getNow(null);
    assertEquals(201, r.status());
    assertEquals("Made", r.reason());
    assertEquals("1", r.headers().first("x-a"));
    assertEquals(Version.HTTP_1_1, r.version());
    CompletableFuture<byte[]> all = StreamingResponses.body(r).readAll(100);
    assertTrue(all.isDone(), "the whole body came with the head: no second wait");
    assertEquals("hello", new String(all.get(), StandardCharsets.US_ASCII));
    assertEquals(1, h.engine.stats().idle(), "released when the last byte arrived");
  }

  @Test
  void headComesFirstAndTheBodyFollowsChunked() throws Exception {
    CompletableFuture<StreamingResponse> f = h.send(EmbeddedHttp1.request("GET", "/").build());
    h.receive("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
    StreamingResponse r = f.getNow(null);
    assertEquals(-1, StreamingResponses.body(r).contentLength());
    CompletableFuture<byte[]> all = StreamingResponses.body(r).readAll(100);
    assertFalse(all.isDone());
    h.receive("3\r\nabc\r\n");
    h.receive("2\r\nde\r\n0\r\n\r\n");
    assertEquals("abcde", new String(all.getNow(null), StandardCharsets.US_ASCII));
    assertEquals(1, h.engine.stats().idle());
  }

  @Test
  void headResponsesHaveNoBodyWhateverTheirContentLength() throws Exception {
    CompletableFuture<StreamingResponse> f = h.send(EmbeddedHttp1.request("HEAD", "/").build());
    h.receive("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n");
    StreamingResponse r = f.getNow(null);
    assertNull(StreamingResponses.body(r).readChunk());
    // The connection is clean: the next response parses from the next bytes.
    CompletableFuture<StreamingResponse> next = h.send(EmbeddedHttp1.request("GET", "/").build());
    h.receive("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
    assertEquals("ok", new String(StreamingResponses.body(next.getNow(null)).readAll(10).get(), StandardCharsets.US_ASCII));
  }

  @Test
  void http10WithoutKeepAliveIsNotReused() {
    CompletableFuture<StreamingResponse> f = h.send(EmbeddedHttp1.request("GET", "/").build());
    h.receive("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok");
    assertEquals(Version.HTTP_1_0, f.getNow(null).version());
    assertFalse(h.channel.isOpen());
    assertEquals(0, h.engine.stats().open());
  }

  @Test
  void connectionCloseFromTheServerIsHonoured() {
    CompletableFuture<StreamingResponse> f = h.send(EmbeddedHttp1.request("GET", "/").build());
    h.receive("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok");
    assertEquals(200, f.getNow(null).status());
    assertFalse(h.channel.isOpen());
  }

  @Test
  void informationalResponsesAreSkipped() {
    CompletableFuture<StreamingResponse> f = h.send(EmbeddedHttp1.request("GET", "/").build());
    h.receive("HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
    assertEquals(200, f.getNow(null).status());
  }

  @Test
  void expectContinueHoldsTheBodyUntil100() throws Exception {
    CompletableFuture<StreamingResponse> f = h.send(EmbeddedHttp1.request("PUT", "/up")
        .body(RequestBody.of("payload")).expectContinue(true).build());
    assertEquals("PUT /up HTTP/1.1\r\nHost: example.test:8080\r\nContent-Length: 7\r\nExpect: 100-continue\r\n\r\n",
        h.written());
    h.receive("HTTP/1.1 100 Continue\r\n\r\n");
    assertEquals("payload", h.written());
    h.receive("HTTP/1.1 204 No Content\r\n\r\n");
    assertEquals(204, f.getNow(null).status());
    assertEquals(1, h.engine.stats().idle());
  }

  @Test
  void aFinalAnswerInsteadOf100MeansNoBodyAndNoReuse() {
    CompletableFuture<StreamingResponse> f = h.send(EmbeddedHttp1.request("PUT", "/up")
        .body(RequestBody.of("payload")).expectContinue(true).build());
    h.written();
    h.receive("HTTP/1.1 413 Too Large\r\nContent-Length: 0\r\n\r\n");
    assertEquals(413, f.getNow(null).status());
    assertEquals("", h.written(), "the body was never sent");
    assertFalse(h.channel.isOpen());
  }

  @Test
  void malformedStatusLineIsAProtocolException() {
    CompletableFuture<StreamingResponse> f = h.send(EmbeddedHttp1.request("GET", "/").build());
    h.receive("HTTP/1.1 abc Bad\r\n\r\n");
    assertInstanceOf(ProtocolException.class, failure(f));
    assertFalse(h.channel.isOpen());
    assertEquals(0, h.engine.stats().open());
  }

  @Test
  void contentLengthWithChunkedIsAProtocolException() {
    CompletableFuture<StreamingResponse> f = h.send(EmbeddedHttp1.request("GET", "/").build());
    h.receive("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
    assertInstanceOf(ProtocolException.class, failure(f));
  }

  @Test
  void badChunkSizeFailsTheBody() {
    CompletableFuture<StreamingResponse> f = h.send(EmbeddedHttp1.request("GET", "/").build());
    h.receive("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
    CompletableFuture<byte[]> all = StreamingResponses.body(f.getNow(null)).readAll(100);
    h.receive("zz\r\n");
    assertInstanceOf(ProtocolException.class, failure(all));
  }

  @Test
  void headersOverTheLimitNameIt() {
    EmbeddedHttp1 small = new EmbeddedHttp1(1024);
    try {
      CompletableFuture<StreamingResponse> f = small.send(EmbeddedHttp1.request("GET", "/").build());
      small.receive("HTTP/1.1 200 OK\r\nX-Big: " + "x".repeat(2000) + "\r\n\r\n");
      Throwable e = failure(f);
      assertInstanceOf(ProtocolException.class, e);
      assertTrue(e.getMessage().contains("limit of 1024 bytes (maxHeaderSize)"), e.getMessage());
    } finally {
      small.close();
    }
  }

  @Test
  void peerCloseBeforeAnyByteIsNoResponse() {
    CompletableFuture<StreamingResponse> f = h.send(EmbeddedHttp1.request("GET", "/").build());
    h.channel.close();
    Throwable e = failure(f);
    assertInstanceOf(ProtocolException.class, e);
    assertTrue(e.getMessage().startsWith("server closed the connection without a response"), e.getMessage());
  }

  @Test
  void aStreamingReaderGetsTheBytesThatArrivedBeforeTheConnectionDropped() {
    CompletableFuture<StreamingResponse> f = h.send(EmbeddedHttp1.request("GET", "/").build());
    h.receive("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabcd");
    StreamingResponse fixed = f.getNow(null);
    h.channel.close();
    assertEquals("abcd", new String(StreamingResponses.body(fixed).readChunk(), StandardCharsets.US_ASCII),
        "what arrived is not lost with the connection");
    assertThrows(HttpException.class, () -> StreamingResponses.body(fixed).readChunk());
    fixed.close();

    // Chunked: the bytes wait in the queue, not in a buffer sized by Content-Length.
    try (EmbeddedHttp1 chunked = new EmbeddedHttp1(64 * 1024)) {
      CompletableFuture<StreamingResponse> g = chunked.send(EmbeddedHttp1.request("GET", "/").build());
      chunked.receive("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n3\r\nefg\r\n");
      StreamingResponse r = g.getNow(null);
      try {
        chunked.channel.close();
      } catch (ProtocolException reachedTheTail) {
        // EmbeddedChannel rethrows what reached the pipeline's end: the same error the reader gets below
      }
      assertEquals("abcd", new String(StreamingResponses.body(r).readChunk(), StandardCharsets.US_ASCII));
      assertEquals("efg", new String(StreamingResponses.body(r).readChunk(), StandardCharsets.US_ASCII));
      HttpException e = assertThrows(HttpException.class, () -> StreamingResponses.body(r).readChunk());
      assertTrue(e.getMessage().contains("closed"), e.getMessage());
      r.close();
    }
  }

  @Test
  void bytesOnAnIdleConnectionCloseIt() {
    CompletableFuture<StreamingResponse> f = h.send(EmbeddedHttp1.request("GET", "/").build());
    h.receive("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
    assertEquals(200, f.getNow(null).status());
    h.receive("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
    assertFalse(h.channel.isOpen());
    assertEquals(0, h.engine.stats().open());
  }

  @Test
  void streamingPausesReadingWhenTheConsumerFallsBehind() {
    CompletableFuture<StreamingResponse> f = h.send(EmbeddedHttp1.request("GET", "/").build());
    h.receive("HTTP/1.1 200 OK\r\nContent-Length: 10000000\r\n\r\n");
    StreamingResponse r = f.getNow(null);
    byte[] piece = new byte[32 * 1024];
    int fed = 0;
    // Feed while the connection keeps asking for more; it must stop asking at the high-water mark.
    while (fed < 1_000_000) {
      int before = h.reads;
      h.receive(piece);
      fed += piece.length;
      if (h.reads == before) {
        break;
      }
    }
    assertTrue(fed >= NettyResponseBody.HIGH_WATER && fed < NettyResponseBody.HIGH_WATER + piece.length,
        "paused after " + fed + " bytes");
    int readsWhilePaused = h.reads;
    // The consumer takes half of what is queued: reading resumes (on the event loop).
    int taken = 0;
    while (taken <= NettyResponseBody.HIGH_WATER / 2) {
      taken += StreamingResponses.body(r).readChunk().length;
    }
    h.channel.runPendingTasks();
    assertEquals(readsWhilePaused + 1, h.reads, "one read requested after the consumer caught up");
    r.close();
    h.channel.runPendingTasks();
    assertFalse(h.channel.isOpen(), "closed before the end: discarded");
  }

  @Test
  void aSmallBodyOfKnownLengthIsReadIntoOneArray() throws Exception {
    CompletableFuture<StreamingResponse> f = h.send(EmbeddedHttp1.request("GET", "/").build());
    h.receive("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nabc");
    StreamingResponse r = f.getNow(null);
    byte[] first = StreamingResponses.body(r).readChunk();
    assertArrayEquals("abc".getBytes(StandardCharsets.US_ASCII), first);
    h.receive("def");
    assertArrayEquals("def".getBytes(StandardCharsets.US_ASCII), StreamingResponses.body(r).readChunk());
    assertNull(StreamingResponses.body(r).readChunk());
    assertSame(null, StreamingResponses.body(r).readChunk());
  }

  @Test
  void cancellingDuringTheExchangeClosesTheConnection() {
    CompletableFuture<StreamingResponse> f = h.send(EmbeddedHttp1.request("GET", "/").build());
    assertTrue(f.cancel(true));
    h.channel.runPendingTasks();
    assertFalse(h.channel.isOpen());
    assertEquals(0, h.engine.stats().open());
  }

  @Test
  void requestsNeverShareAConnection() {
    Request get = EmbeddedHttp1.request("GET", "/").build();
    CompletableFuture<StreamingResponse> first = h.send(get);
    CompletableFuture<StreamingResponse> second = h.send(get);
    h.written();
    assertEquals(1, h.engine.stats().pending());
    h.receive("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na");
    assertEquals(200, first.getNow(null).status());
    assertTrue(h.written().startsWith("GET / HTTP/1.1"), "the hand-off wrote the next request at once");
    h.receive("HTTP/1.1 202 OK\r\nContent-Length: 1\r\n\r\nb");
    assertEquals(202, second.getNow(null).status());
  }

  @Test
  void aRequestAskingToCloseIsNotReused() {
    CompletableFuture<StreamingResponse> f = h.send(EmbeddedHttp1.request("GET", "/").header("Connection", "close").build());
    assertTrue(h.written().contains("\r\nConnection: close\r\n"));
    h.receive("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
    assertEquals(200, f.getNow(null).status());
    assertFalse(h.channel.isOpen());
    assertEquals(0, h.engine.stats().open());
  }
}
