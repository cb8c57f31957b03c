package dev.strand.transport;

import dev.strand.spi.StreamingResponses;
import static dev.strand.transport.TransportFixture.fetch;
import static dev.strand.transport.TransportFixture.get;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.NettyTransport;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.Response;
import dev.strand.StreamingResponse;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServerExtension;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Request and response bodies end to end: framing both ways, large streams, 100-continue. */
@ExtendWith(NettyLeakDetectorExtension.class)
class BodiesTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  static Request post(String path, RequestBody body, boolean expectContinue) {
    return Request.builder("POST", server.url(path)).body(body).expectContinue(expectContinue)
        .timeout(TransportFixture.TIMEOUT).build();
  }

  static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }

  @Test
  void inMemoryBodyIsEchoedWithContentLength() throws Exception {
    try (NettyTransport t = TransportFixture.transport(2)) {
      Response r = fetch(t, post("/echo", RequestBody.of("hello strand"), false));
      String json = r.text();
      assertTrue(json.contains("\"body\": \"hello strand\""), json);
      assertTrue(json.contains("\"Content-Length\": [\"12\"]"), json);
      assertTrue(json.contains("\"Host\": [\"127.0.0.1:" + server.port() + "\"]"), json);
    }
  }

  @Test
  void streamOfUnknownLengthIsSentChunked() throws Exception {
    byte[] data = Payloads.bytes(300_000);
    try (NettyTransport t = TransportFixture.transport(2)) {
      Response r = fetch(t, post("/sink", RequestBody.ofInputStream(new ByteArrayInputStream(data), null), false));
      assertEquals(200, r.status());
      assertTrue(r.text().contains("\"bytes\": 300000"), r.text());
      assertTrue(r.text().contains(sha256(data)), r.text());
      Response echo = fetch(t, post("/echo", RequestBody.ofInputStream(new ByteArrayInputStream(new byte[] {'a'}), null), false));
      assertTrue(echo.text().contains("\"Transfer-Encoding\": [\"chunked\"]"), echo.text());
      assertEquals(1, t.stats().connectionsOpened(), "chunked uploads keep the connection");
    }
  }

  @Test
  void largeFileUploadStreamsFromDisk(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("upload.bin");
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    long size = 0;
    Random random = new Random(42);
    byte[] block = new byte[1 << 20];
    try (OutputStream out = Files.newOutputStream(file)) {
      for (int i = 0; i < 64; i++) {
        random.nextBytes(block);
        out.write(block);
        digest.update(block);
        size += block.length;
      }
    }
    try (NettyTransport t = TransportFixture.transport(2)) {
      Response r = fetch(t, post("/sink", RequestBody.ofFile(file), false));
      assertTrue(r.text().contains("\"bytes\": " + size), r.text());
      assertTrue(r.text().contains(HexFormat.of().formatHex(digest.digest())), r.text());
    }
  }

  @Test
  void largeInMemoryBodyIsSentWhole() throws Exception {
    byte[] data = Payloads.bytes(3_000_000);
    try (NettyTransport t = TransportFixture.transport(2)) {
      Response r = fetch(t, post("/sink", RequestBody.of(data), false));
      assertTrue(r.text().contains("\"bytes\": 3000000"), r.text());
      assertTrue(r.text().contains(sha256(data)), r.text());
      assertEquals(200, fetch(t, post("/sink", RequestBody.of(data), true)).status());
      assertEquals(1, t.stats().connectionsOpened());
    }
  }

  @Test
  void expectContinueSendsTheBodyOnceTheServerAgrees() throws Exception {
    byte[] data = Payloads.bytes(50_000);
    try (NettyTransport t = TransportFixture.transport(2)) {
      Response r = fetch(t, post("/sink", RequestBody.of(data), true));
      assertEquals(200, r.status());
      assertTrue(r.text().contains(sha256(data)), r.text());
      assertEquals(1, TransportFixture.awaitQuiet(t).idle(), "the connection is reusable");
    }
  }

  @Test
  void expectContinueRejectedSendsNoBodyAndDropsTheConnection() throws Exception {
    try (NettyTransport t = TransportFixture.transport(2)) {
      Response r = fetch(t, post("/sink?reject=1", RequestBody.of(Payloads.bytes(50_000)), true));
      assertEquals(417, r.status());
      TransportFixture.awaitStats(t, s -> s.open() == 0);
    }
  }

  @Test
  void largeDownloadStreamsInBoundedMemory() throws Exception {
    long size = 1L << 30;
    // strand-core's tests run with a heap smaller than this body (pom: -Xmx768m), so a transport that
    // piled the body up instead of reading on demand would end this test with OutOfMemoryError.
    assertTrue(size > Runtime.getRuntime().maxMemory(), "the body must not fit in the test heap");
    try (NettyTransport t = TransportFixture.transport(2)) {
      try (StreamingResponse r = t.send(get(server.get(), "/bytes/" + size)).get(10, TimeUnit.SECONDS)) {
        assertEquals(size, StreamingResponses.body(r).contentLength());
        long total = 0;
        byte[] chunk;
        while ((chunk = StreamingResponses.body(r).readChunk()) != null) {
          total += chunk.length;
        }
        assertEquals(size, total);
      }
      assertEquals(1, TransportFixture.awaitQuiet(t).idle());
    }
  }

  @Test
  void headAndNoContentHaveNoBody() throws Exception {
    try (NettyTransport t = TransportFixture.transport(1)) {
      Request head = Request.builder("HEAD", server.url("/big")).timeout(TransportFixture.TIMEOUT).build();
      StreamingResponse r = t.send(head).get(10, TimeUnit.SECONDS);
      assertEquals(200, r.status());
      assertEquals(String.valueOf(Payloads.BIG.length), r.headers().first("content-length"));
      assertNull(StreamingResponses.body(r).readChunk());
      Response noContent = fetch(t, get(server.get(), "/status/204"));
      assertEquals(204, noContent.status());
      assertEquals(0, noContent.bytes().length);
      Response small = fetch(t, get(server.get(), "/small"));
      assertArrayEquals(Payloads.SMALL, small.bytes());
      assertEquals(1, t.stats().connectionsOpened(), "all on one connection");
    }
  }

  @Test
  void bodyOverTheLimitFailsAndDiscardsTheConnection() throws Exception {
    try (NettyTransport t = TransportFixture.transport(1)) {
      // Larger than what is read ahead, so the body cannot have ended before readAll is called.
      StreamingResponse known = t.send(get(server.get(), "/bytes/2000000")).get(10, TimeUnit.SECONDS);
      assertInstanceOf(ProtocolException.class, TransportFixture.failure(StreamingResponses.body(known).readAll(1000)));
      StreamingResponse chunked = t.send(get(server.get(), "/chunked/2000000")).get(10, TimeUnit.SECONDS);
      Throwable e = TransportFixture.failure(StreamingResponses.body(chunked).readAll(1000));
      assertInstanceOf(ProtocolException.class, e);
      assertTrue(e.getMessage().contains("exceeds the limit of 1000 bytes"), e.getMessage());
      TransportFixture.awaitStats(t, s -> s.open() == 0);
      assertEquals(2, t.stats().connectionsOpened());
    }
  }
}
