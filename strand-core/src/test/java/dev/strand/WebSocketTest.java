package dev.strand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServerExtension;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** WebSocket messaging and the closing handshake against the testkit's Netty WebSocket endpoints. */
@ExtendWith(NettyLeakDetectorExtension.class)
class WebSocketTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  private static String ws(String path) {
    return "ws://127.0.0.1:" + server.port() + path;
  }

  @Test
  void echoesTextAndBinaryThenClosesCleanly() throws Exception {
    try (Client client = Client.create()) {
      WebSocketRecorder rec = new WebSocketRecorder();
      WebSocket ws = client.websocket(ws("/ws/echo"), rec);
      assertEquals(1, rec.opens.get(), "onOpen before websocket() returns");
      assertEquals(101, ws.handshake().status());
      assertEquals("websocket", ws.handshake().headers().first("Upgrade").toLowerCase());
      assertNull(ws.subprotocol());
      assertTrue(ws.isOpen());

      ws.sendText("héllo ✓").get(5, TimeUnit.SECONDS);
      assertEquals("héllo ✓", rec.nextText());
      assertTrue(rec.callbackThread.startsWith("strand-io"), rec.callbackThread);
      byte[] data = Payloads.bytes(70_000);
      ws.sendBinary(data);
      assertArrayEquals(data, rec.nextBinary());
      ws.sendBinary(new byte[0]);
      assertArrayEquals(new byte[0], rec.nextBinary());

      ws.close(1000, "done").get(5, TimeUnit.SECONDS);
      rec.awaitEnd();
      assertEquals(1000, rec.closeCode);
      assertEquals("done", rec.closeReason);
      assertFalse(ws.isOpen());
      ExecutionException late = assertThrows(ExecutionException.class, () -> ws.sendText("late").get(5, TimeUnit.SECONDS));
      assertInstanceOf(IllegalStateException.class, late.getCause());
      assertTrue(ws.close(1000, "again").isDone(), "closing twice is harmless");
    }
  }

  @Test
  void pingIsAnsweredWithPong() throws Exception {
    try (Client client = Client.create()) {
      WebSocketRecorder rec = new WebSocketRecorder();
      WebSocket ws = client.websocket(ws("/ws/echo"), rec);
      ws.ping("are you there".getBytes(StandardCharsets.UTF_8));
      byte[] pong = rec.pongs.poll(5, TimeUnit.SECONDS);
      assertEquals("are you there", new String(pong, StandardCharsets.UTF_8));
      assertThrows(IllegalArgumentException.class, () -> ws.ping(new byte[126]));
      ws.close(1000, "").get(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void serverInitiatedCloseReportsItsCodeAndReason() throws Exception {
    try (Client client = Client.create()) {
      WebSocketRecorder rec = new WebSocketRecorder();
      WebSocket ws = client.websocket(ws("/ws/close?code=4000&reason=bye"), rec);
      rec.awaitEnd();
      assertEquals(4000, rec.closeCode);
      assertEquals("bye", rec.closeReason);
      assertNull(rec.error);
      assertFalse(ws.isOpen());
    }
  }

  @Test
  void abortDropsTheConnectionAndReportsAnError() throws Exception {
    try (Client client = Client.create()) {
      WebSocketRecorder rec = new WebSocketRecorder();
      WebSocket ws = client.websocket(ws("/ws/echo"), rec);
      ws.abort();
      HttpException e = rec.awaitError();
      assertTrue(e.getMessage().contains("aborted"), e.getMessage());
      assertFalse(ws.isOpen());
      ExecutionException send = assertThrows(ExecutionException.class, () -> ws.sendText("x").get(5, TimeUnit.SECONDS));
      assertInstanceOf(IllegalStateException.class, send.getCause());
    }
  }

  @Test
  void aThousandMessagesComeBackInOrder() throws Exception {
    try (Client client = Client.create()) {
      WebSocketRecorder rec = new WebSocketRecorder();
      WebSocket ws = client.websocket(ws("/ws/echo"), rec);
      for (int i = 0; i < 1000; i++) {
        ws.sendText("message " + i);
      }
      for (int i = 0; i < 1000; i++) {
        assertEquals("message " + i, rec.nextText());
      }
      ws.close(1000, "").get(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void fragmentedMessagesAreReassembled() throws Exception {
    try (Client client = Client.create()) {
      WebSocketRecorder rec = new WebSocketRecorder();
      WebSocket ws = client.websocket(ws("/ws/echo?fragment=1000"), rec);
      byte[] data = Payloads.bytes(100_000);
      ws.sendBinary(data);
      assertArrayEquals(data, rec.nextBinary());
      String text = "ünïcödé ✓ ".repeat(5_000); // fragments split multi-byte characters
      ws.sendText(text);
      assertEquals(text, rec.nextText());
      ws.close(1000, "").get(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void permessageDeflateIsNegotiatedAndUsed() throws Exception {
    try (Client client = Client.create()) {
      WebSocketRecorder rec = new WebSocketRecorder();
      WebSocket ws = client.websocket(ws("/ws/echo?deflate=1&fragment=4096"), rec);
      String extensions = ws.handshake().headers().first("Sec-WebSocket-Extensions");
      assertTrue(extensions != null && extensions.startsWith("permessage-deflate"), String.valueOf(extensions));
      String text = "compress me ".repeat(100_000);
      ws.sendText(text);
      assertEquals(text, rec.nextText());
      ws.close(1000, "").get(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void subprotocolIsOfferedAndSelected() throws Exception {
    try (Client client = Client.create()) {
      WebSocketRecorder rec = new WebSocketRecorder();
      Request handshake = Request.builder("GET", "http://127.0.0.1:" + server.port() + "/ws/echo")
          .header("Sec-WebSocket-Protocol", "chat")
          .header("Sec-WebSocket-Protocol", "superchat")
          .build();
      WebSocket ws = client.websocket(handshake, rec);
      assertEquals("chat", ws.subprotocol());
      ws.close(1000, "").get(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void handshakeGetsClientDefaultsAuthAndCookies() throws Exception {
    List<Request> sent = new CopyOnWriteArrayList<>();
    List<ResponseHead> heads = new CopyOnWriteArrayList<>();
    try (Client client = Client.builder().header("X-Team", "strand").auth(Auth.bearer("t0ken"))
        .onRequest(sent::add).onResponse(heads::add).build()) {
      client.get(server.url("/cookies/set?flavour=oat"));
      sent.clear();
      heads.clear();
      WebSocket ws = client.websocket(ws("/ws/echo"), new WebSocketRecorder());
      Request r = sent.get(0);
      assertEquals("strand", r.headers().first("X-Team"));
      assertEquals("Bearer t0ken", r.headers().first("Authorization"));
      assertEquals("flavour=oat", r.headers().first("Cookie"));
      assertTrue(r.headers().first("User-Agent").startsWith("strand/"), r.headers().toString());
      assertEquals(101, heads.get(0).status());
      ws.close(1000, "").get(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void asyncTwinCompletesWithTheSocket() throws Exception {
    try (Client client = Client.create()) {
      WebSocketRecorder rec = new WebSocketRecorder();
      WebSocket ws = client.async().websocket(ws("/ws/echo"), rec).get(5, TimeUnit.SECONDS);
      ws.sendText("async");
      assertEquals("async", rec.nextText());
      ws.close(1000, "").get(5, TimeUnit.SECONDS);
      ExecutionException bad = assertThrows(ExecutionException.class,
          () -> client.async().websocket("ftp://127.0.0.1/x", rec).get(5, TimeUnit.SECONDS));
      assertInstanceOf(InvalidUrlException.class, bad.getCause());
    }
  }

  @Test
  void aThrowingListenerEndsTheSocketWith1011() throws Exception {
    try (Client client = Client.create()) {
      WebSocketRecorder rec = new WebSocketRecorder() {
        @Override
        public void onText(WebSocket ws, String text) {
          throw new IllegalStateException("listener bug");
        }
      };
      WebSocket ws = client.websocket(ws("/ws/echo"), rec);
      ws.sendText("boom");
      HttpException e = rec.awaitError();
      assertTrue(e.getMessage().contains("listener bug") && e.getMessage().contains("1011"), e.getMessage());
      assertInstanceOf(IllegalStateException.class, e.getCause());
    }
  }

  @Test
  void closingTheClientAbortsOpenSockets() throws Exception {
    WebSocketRecorder a = new WebSocketRecorder();
    WebSocketRecorder b = new WebSocketRecorder();
    Client client = Client.create();
    client.websocket(ws("/ws/echo"), a);
    WebSocket wsB = client.websocket(ws("/ws/echo"), b);
    client.close();
    assertTrue(a.awaitError().getMessage().contains("client was closed"), a.error.getMessage());
    assertTrue(b.awaitError().getMessage().contains("client was closed"), b.error.getMessage());
    assertFalse(wsB.isOpen());
  }

  @Test
  void invalidCloseArgumentsAreRejected() throws Exception {
    try (Client client = Client.create()) {
      WebSocket ws = client.websocket(ws("/ws/echo"), new WebSocketRecorder());
      assertThrows(IllegalArgumentException.class, () -> ws.close(1005, ""));
      assertThrows(IllegalArgumentException.class, () -> ws.close(999, ""));
      assertThrows(IllegalArgumentException.class, () -> ws.close(1000, "x".repeat(124)));
      ws.close(4999, "fine").get(5, TimeUnit.SECONDS);
    }
  }
}
