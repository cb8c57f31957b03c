package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** How opening or running a WebSocket fails: each with our exception, a message that says why, and no hang. */
@ExtendWith(NettyLeakDetectorExtension.class)
class WebSocketFailuresTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  private static String ws(String path) {
    return "ws://127.0.0.1:" + server.port() + path;
  }

  @Test
  void aRejectedHandshakeCarriesTheStatus() {
    try (Client client = Client.create()) {
      WebSocketRecorder rec = new WebSocketRecorder();
      WebSocketHandshakeException e = assertThrows(WebSocketHandshakeException.class,
          () -> client.websocket(ws("/ws/reject"), rec));
      assertEquals(403, e.status());
      assertEquals("WebSocket handshake failed: HTTP 403 Forbidden (GET " + ws("/ws/reject") + ")", e.getMessage());
      assertTrue(e.headers().contains("Content-Type"), e.headers().toString());
      assertEquals(0, rec.opens.get());
      assertEquals(0, rec.ends.get(), "no listener call for a socket that never opened");
    }
  }

  @Test
  void aPlainHttpEndpointIsNotAWebSocket() {
    try (Client client = Client.create()) {
      WebSocketHandshakeException e = assertThrows(WebSocketHandshakeException.class,
          () -> client.websocket(ws("/small"), new WebSocketRecorder()));
      assertEquals(200, e.status());
    }
  }

  @Test
  void anUnreachablePortFailsToConnect() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    try (Client client = Client.create()) {
      ConnectException e = assertThrows(ConnectException.class,
          () -> client.websocket("ws://127.0.0.1:" + port + "/ws", new WebSocketRecorder()));
      assertTrue(e.getMessage().contains("connection refused"), e.getMessage());
    }
  }

  @Test
  void aServerThatNeverAnswersTimesOut() {
    try (Client client = Client.builder().timeout(Timeout.of(Duration.ofMillis(300))).build()) {
      long start = System.nanoTime();
      ReadTimeoutException e = assertThrows(ReadTimeoutException.class,
          () -> client.websocket(ws("/never"), new WebSocketRecorder()));
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(millis >= 250 && millis < 3000, millis + " ms");
      assertTrue(e.getMessage().contains("timed out"), e.getMessage());
    }
  }

  @Test
  void aPeerThatNeverAnswersOurCloseIsDroppedAfterTheReadTimeout() throws Exception {
    try (Client client = Client.builder().timeout(Timeout.DEFAULT.withRead(Duration.ofMillis(300))).build()) {
      WebSocketRecorder rec = new WebSocketRecorder();
      WebSocket ws = client.websocket(ws("/ws/deaf"), rec);
      ws.sendText("still listening");
      assertEquals("still listening", rec.nextText());
      long start = System.nanoTime();
      ws.close(1000, "bye").get(5, TimeUnit.SECONDS); // completes once the connection is dropped
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(millis >= 250 && millis < 3000, millis + " ms");
      HttpException e = rec.awaitError();
      assertInstanceOf(ReadTimeoutException.class, e);
      assertEquals("the peer did not answer the WebSocket Close within 300 ms (GET " + ws("/ws/deaf") + ")",
          e.getMessage());
      assertFalse(ws.isOpen());
    }
  }

  @Test
  void badUrlsAreRejected() {
    try (Client client = Client.create()) {
      InvalidUrlException scheme = assertThrows(InvalidUrlException.class,
          () -> client.websocket("ftp://127.0.0.1/x", new WebSocketRecorder()));
      assertTrue(scheme.getMessage().contains("ws, wss, http or https"), scheme.getMessage());
      assertThrows(InvalidUrlException.class, () -> client.websocket("ws://", new WebSocketRecorder()));
      assertThrows(InvalidUrlException.class, () -> client.websocket("/relative", new WebSocketRecorder()));
    }
  }

  @Test
  void aHandshakeIsAGetWithoutBody() {
    try (Client client = Client.create()) {
      Request post = Request.builder("POST", server.url("/ws/echo")).body(RequestBody.of("x")).build();
      ProtocolException e = assertThrows(ProtocolException.class, () -> client.websocket(post, new WebSocketRecorder()));
      assertTrue(e.getMessage().contains("GET request without a body"), e.getMessage());
    }
  }

  @Test
  void aTransportWithoutWebSocketsSaysSo() {
    try (Client client = Client.builder().transport(MockTransport.of(r -> Response.builder(200).build())).build()) {
      ProtocolException e = assertThrows(ProtocolException.class,
          () -> client.websocket("ws://example.test/ws", new WebSocketRecorder()));
      assertTrue(e.getMessage().contains("does not support WebSockets"), e.getMessage());
    }
  }

  @Test
  void aMessageOverTheLimitEndsTheSocketWith1009() throws Exception {
    try (Client client = Client.builder().webSocketMaxMessageSize(1024).build()) {
      for (String path : new String[] {"/ws/echo", "/ws/echo?fragment=300", "/ws/echo?deflate=1"}) {
        WebSocketRecorder rec = new WebSocketRecorder();
        WebSocket ws = client.websocket(ws(path), rec);
        ws.sendText("fits");
        assertEquals("fits", rec.nextText(), path);
        ws.sendBinary(new byte[2000]); // zeros: compresses to a few bytes, inflates past the limit
        HttpException e = rec.awaitError();
        assertInstanceOf(ProtocolException.class, e, path);
        assertTrue(e.getMessage().contains("limit of 1024 bytes") && e.getMessage().contains("1009"),
            path + ": " + e.getMessage());
        assertTrue(rec.messages.isEmpty(), path);
      }
    }
  }

  @Test
  void invalidUtf8InATextMessageEndsTheSocketWith1007() throws Exception {
    try (Client client = Client.create()) {
      WebSocketRecorder rec = new WebSocketRecorder();
      client.websocket(ws("/ws/invalid-utf8"), rec);
      HttpException e = rec.awaitError();
      assertInstanceOf(ProtocolException.class, e);
      assertTrue(e.getMessage().contains("UTF-8") && e.getMessage().contains("1007"), e.getMessage());
    }
  }
}
