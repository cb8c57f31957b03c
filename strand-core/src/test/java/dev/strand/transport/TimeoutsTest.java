package dev.strand.transport;

import dev.strand.spi.StreamingResponses;
import static dev.strand.transport.TransportFixture.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.strand.ConnectException;
import dev.strand.ConnectTimeoutException;
import dev.strand.NettyTransport;
import dev.strand.PoolTimeoutException;
import dev.strand.ReadTimeoutException;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.StreamingResponse;
import dev.strand.Timeout;
import dev.strand.TransportException;
import dev.strand.WriteTimeoutException;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

@ExtendWith(NettyLeakDetectorExtension.class)
class TimeoutsTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  static Request get(String path, Timeout timeout) {
    return Request.builder("GET", server.url(path)).timeout(timeout).build();
  }

  @Test
  void silentServerIsAReadTimeout() throws Exception {
    try (NettyTransport t = TransportFixture.transport(2)) {
      Request r = get("/never", TransportFixture.TIMEOUT.withRead(Duration.ofMillis(300)));
      Throwable e = failure(t.send(r));
      assertInstanceOf(ReadTimeoutException.class, e);
      assertEquals("read timed out after 0.3 s (GET " + server.url("/never") + ")", e.getMessage());
      var s = TransportFixture.awaitStats(t, x -> x.open() == 0);
      assertEquals(0, s.inUse(), "the timed-out connection is discarded");
    }
  }

  @Test
  void readTimeoutIsTheLongestSilenceNotTheTotalTime() throws Exception {
    try (NettyTransport t = TransportFixture.transport(2)) {
      // 6 bytes, one every 100 ms: 500 ms in total, never 400 ms of silence.
      Request ok = get("/drip?bytes=6&delay=0&interval=100", TransportFixture.TIMEOUT.withRead(Duration.ofMillis(400)));
      StreamingResponse r = t.send(ok).get(10, TimeUnit.SECONDS);
      assertEquals(6, StreamingResponses.body(r).readAll(100).get(10, TimeUnit.SECONDS).length);

      Request slow = get("/drip?bytes=3&delay=0&interval=1500", TransportFixture.TIMEOUT.withRead(Duration.ofMillis(300)));
      StreamingResponse r2 = t.send(slow).get(10, TimeUnit.SECONDS);
      Throwable e = failure(StreamingResponses.body(r2).readAll(100));
      assertInstanceOf(ReadTimeoutException.class, e);
    }
  }

  @Test
  void aSlowConsumerIsNotAReadTimeout() throws Exception {
    try (NettyTransport t = TransportFixture.transport(2)) {
      int size = 4 * 1024 * 1024;
      Request r = get("/bytes/" + size, TransportFixture.TIMEOUT.withRead(Duration.ofMillis(200)));
      try (StreamingResponse resp = t.send(r).get(10, TimeUnit.SECONDS)) {
        long total = StreamingResponses.body(resp).readChunk().length;
        // The consumer dawdles longer than the read timeout while reading is paused by backpressure.
        Thread.sleep(600);
        byte[] chunk;
        while ((chunk = StreamingResponses.body(resp).readChunk()) != null) {
          total += chunk.length;
        }
        assertEquals(size, total);
      }
      assertEquals(1, TransportFixture.awaitQuiet(t).idle(), "read to the end: back in the pool");
    }
  }

  @Test
  void refusedConnectionIsAConnectException() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    try (NettyTransport t = TransportFixture.transport(2)) {
      Request r = Request.builder("GET", "http://127.0.0.1:" + port + "/").timeout(TransportFixture.TIMEOUT).build();
      Throwable e = failure(t.send(r));
      assertInstanceOf(ConnectException.class, e);
      assertTrue(e.getMessage().startsWith("cannot connect to 127.0.0.1:" + port + ": connection refused"), e.getMessage());
      assertEquals(0, t.stats().open());
    }
  }

  @Test
  void aServerWhoseBacklogIsFullIsAConnectTimeout() throws Exception {
    // Linux drops SYNs once a listener's accept queue is full, so connecting hangs until the timeout.
    List<Socket> fillers = new ArrayList<>();
    try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        NettyTransport t = TransportFixture.transport(2)) {
      for (int i = 0; i < 8; i++) {
        Socket s = new Socket();
        fillers.add(s);
        try {
          s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), full.getLocalPort()), 200);
        } catch (IOException e) {
          break; // the queue is full now
        }
      }
      Request r = Request.builder("GET", "http://127.0.0.1:" + full.getLocalPort() + "/")
          .timeout(TransportFixture.TIMEOUT.withConnect(Duration.ofMillis(300))).build();
      Throwable e = failure(t.send(r));
      assumeFalse(e instanceof ConnectException && !(e instanceof ConnectTimeoutException)
          && e.getMessage().contains("refused"), "this kernel refuses instead of dropping SYNs");
      assertInstanceOf(ConnectTimeoutException.class, e);
      assertTrue(e.getMessage().startsWith("connect to 127.0.0.1:" + full.getLocalPort() + " timed out after 0.3 s"),
          e.getMessage());
      assertEquals(0, t.stats().open());
    } finally {
      for (Socket s : fillers) {
        s.close();
      }
    }
  }

  @Test
  void httpsToAClosedPortIsAConnectException() throws Exception {
    try (NettyTransport t = TransportFixture.transport(2)) {
      Request r = Request.builder("GET", "https://127.0.0.1:1/").timeout(TransportFixture.TIMEOUT).build();
      Throwable e = failure(t.send(r));
      assertInstanceOf(ConnectException.class, e);
      assertTrue(e.getMessage().startsWith("cannot connect to 127.0.0.1:1"), e.getMessage());
    }
  }

  @Test
  void waitingTooLongForAConnectionIsAPoolTimeout() throws Exception {
    try (NettyTransport t = TransportFixture.transport(1)) {
      CompletableFuture<StreamingResponse> busy = t.send(get("/delay/1500", TransportFixture.TIMEOUT));
      TransportFixture.awaitStats(t, s -> s.inUse() == 1);
      Request second = get("/small", TransportFixture.TIMEOUT.withPool(Duration.ofMillis(200)));
      Throwable e = failure(t.send(second));
      assertInstanceOf(PoolTimeoutException.class, e);
      assertTrue(e.getMessage().contains("0.2 s"), e.getMessage());
      assertEquals(0, t.stats().pending());
      StreamingResponses.body(busy.get(10, TimeUnit.SECONDS)).readAll(1 << 20).get(10, TimeUnit.SECONDS);
      assertEquals(1, TransportFixture.awaitQuiet(t).idle());
    }
  }

  @Test
  void aPeerThatStopsReadingIsAWriteTimeout() throws Exception {
    try (ServerSocket deaf = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        NettyTransport t = TransportFixture.transport(1)) {
      InputStream endless = new InputStream() {
        @Override
        public int read() {
          return 'x';
        }

        @Override
        public int read(byte[] b, int off, int len) {
          Arrays.fill(b, off, off + len, (byte) 'x');
          return len;
        }
      };
      Request r = Request.builder("POST", "http://127.0.0.1:" + deaf.getLocalPort() + "/upload")
          .body(RequestBody.ofInputStream(endless, null))
          .timeout(TransportFixture.TIMEOUT.withWrite(Duration.ofMillis(500)))
          .build();
      Throwable e = failure(t.send(r));
      assertInstanceOf(WriteTimeoutException.class, e);
      assertTrue(e.getMessage().startsWith("write timed out after 0.5 s"), e.getMessage());
      TransportFixture.awaitStats(t, s -> s.open() == 0);
    }
  }

  @Test
  void aRelativeUrlIsRefused() {
    // A relative URL is the client's job to resolve; the transport refuses it plainly.
    try (NettyTransport t = TransportFixture.transport(1)) {
      Request r = Request.builder("GET", "/relative").timeout(TransportFixture.TIMEOUT).build();
      assertThrows(Exception.class, () -> t.send(r).get(1, TimeUnit.SECONDS));
      assertTrue(t.send(r).isCompletedExceptionally());
      assertInstanceOf(TransportException.class, t.send(r).exceptionNow());
    }
  }
}
