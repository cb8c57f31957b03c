package dev.strand.transport;

import dev.strand.spi.StreamingResponses;
import static dev.strand.transport.TransportFixture.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.strand.ClientStats;
import dev.strand.NettyTransport;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.TransportException;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServerExtension;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Each broken response ends in the right exception, nothing hangs, and no connection stays in use. */
@ExtendWith(NettyLeakDetectorExtension.class)
class FaultsTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();
  NettyTransport transport;

  @BeforeEach
  void open() {
    transport = TransportFixture.transport(4);
  }

  @AfterEach
  void close() throws Exception {
    ClientStats s = TransportFixture.awaitQuiet(transport);
    assertEquals(s.open(), s.idle(), "no connection left in use: " + s);
    // The transport still works after the fault.
    StreamingResponse ok = transport.send(get(server.get(), "/small")).get(10, TimeUnit.SECONDS);
    assertEquals(Payloads.SMALL.length, StreamingResponses.body(ok).readAll(1 << 20).get(10, TimeUnit.SECONDS).length);
    transport.close();
  }

  /** The failure of sending {@code path} and reading its whole body. */
  Throwable failureOf(String path) throws Exception {
    Request request = get(server.get(), path);
    StreamingResponse r;
    try {
      r = transport.send(request).get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    }
    try {
      StreamingResponses.body(r).readAll(Long.MAX_VALUE).get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    }
    return fail("expected " + path + " to fail");
  }

  @Test
  void closeAfterHeaders() throws Exception {
    Throwable e = failureOf("/fault/close-after-headers");
    assertInstanceOf(ProtocolException.class, e);
    assertTrue(e.getMessage().contains("received 0 of 100 bytes"), e.getMessage());
  }

  @Test
  void resetMidBody() throws Exception {
    assertInstanceOf(TransportException.class, failureOf("/fault/reset-mid-body"));
  }

  @Test
  void wrongLength() throws Exception {
    Throwable e = failureOf("/fault/wrong-length");
    assertInstanceOf(ProtocolException.class, e);
    assertTrue(e.getMessage().contains("10 of 1000"), e.getMessage());
  }

  @Test
  void badStatusLine() throws Exception {
    Throwable e = failureOf("/fault/bad-status-line");
    assertInstanceOf(ProtocolException.class, e);
    assertTrue(e.getMessage().contains("malformed response"), e.getMessage());
  }

  @Test
  void badChunk() throws Exception {
    Throwable e = failureOf("/fault/bad-chunk");
    assertInstanceOf(ProtocolException.class, e);
    assertTrue(e.getMessage().contains("body"), e.getMessage());
  }

  @Test
  void bothContentLengthAndChunked() throws Exception {
    assertInstanceOf(ProtocolException.class, failureOf("/fault/both-lengths"));
  }

  @Test
  void closeWithoutResponse() throws Exception {
    Throwable e = failureOf("/fault/close");
    assertInstanceOf(ProtocolException.class, e);
    assertTrue(e.getMessage().contains("without a response"), e.getMessage());
  }

  @Test
  void headersOverTheLimit() throws Exception {
    Throwable e = failureOf("/fault/huge-headers");
    assertInstanceOf(ProtocolException.class, e);
    assertTrue(e.getMessage().contains("65536 bytes (maxHeaderSize)"), e.getMessage());
  }

  @Test
  void largerHeaderLimitAcceptsHugeHeaders() throws Exception {
    try (NettyTransport big = NettyTransport.builder().maxHeaderSize(256 * 1024).build()) {
      StreamingResponse r = big.send(get(server.get(), "/fault/huge-headers")).get(10, TimeUnit.SECONDS);
      assertEquals(200, r.status());
      assertEquals(140, r.headers().size() - (int) r.headers().toMap().keySet().stream()
          .filter(n -> !n.startsWith("x-filler")).count());
      StreamingResponses.body(r).readAll(1024).get(10, TimeUnit.SECONDS);
    }
  }
}
