package dev.strand.peers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.Request;
import dev.strand.WebSocket;
import dev.strand.WebSocketHandshakeException;
import dev.strand.WebSocketRecorder;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The WebSocket client against an implementation that shares no code with it: Python's aiohttp
 * (.ci/websocket/aiohttp_ws.py; bin/test starts it and sets {@code STRAND_AIOHTTP_WS_URL}).
 * Skipped without it, except on CI, where that is an error.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
@Tag("peer")
class AiohttpWebSocketTest {
  private static String base;
  private static Client client;

  @BeforeAll
  static void connect() {
    base = Peers.env("STRAND_AIOHTTP_WS_URL");
    client = Client.create();
  }

  @AfterAll
  static void close() {
    if (client != null) {
      client.close();
    }
  }

  @Test
  void echoesTextBinaryAndAMebibyteCompressed() throws Exception {
    WebSocketRecorder rec = new WebSocketRecorder();
    WebSocket ws = client.websocket(base + "/echo", rec);
    String extensions = ws.handshake().headers().first("Sec-WebSocket-Extensions");
    assertTrue(extensions != null && extensions.contains("permessage-deflate"), String.valueOf(extensions));
    ws.sendText("hello aiohttp ✓");
    assertEquals("hello aiohttp ✓", rec.nextText());
    byte[] data = Payloads.bytes(1024 * 1024);
    ws.sendBinary(data);
    assertArrayEquals(data, rec.nextBinary());
    String big = "0123456789abcdef".repeat(64 * 1024);
    ws.sendText(big);
    assertEquals(big, rec.nextText());
    for (int i = 0; i < 200; i++) {
      ws.sendText("n" + i);
    }
    for (int i = 0; i < 200; i++) {
      assertEquals("n" + i, rec.nextText());
    }
    ws.ping(new byte[] {1, 2, 3});
    assertArrayEquals(new byte[] {1, 2, 3}, rec.pongs.poll(5, TimeUnit.SECONDS));
    ws.close(1000, "done").get(10, TimeUnit.SECONDS);
    rec.awaitEnd();
    assertEquals(1000, rec.closeCode);
  }

  @Test
  void selectsTheOfferedSubprotocol() throws Exception {
    Request handshake = Request.builder("GET", base.replaceFirst("^ws", "http") + "/echo")
        .header("Sec-WebSocket-Protocol", "chat").build();
    WebSocket ws = client.websocket(handshake, new WebSocketRecorder());
    assertEquals("chat", ws.subprotocol());
    ws.close(1000, "").get(10, TimeUnit.SECONDS);
  }

  @Test
  void serverCloseCodeAndReasonArrive() throws Exception {
    WebSocketRecorder rec = new WebSocketRecorder();
    client.websocket(base + "/close?code=4000&reason=bye", rec);
    rec.awaitEnd();
    assertEquals(4000, rec.closeCode);
    assertEquals("bye", rec.closeReason);
  }

  @Test
  void applicationCloseCodeReachesTheServer() throws Exception {
    WebSocketRecorder rec = new WebSocketRecorder();
    WebSocket ws = client.websocket(base + "/echo", rec);
    ws.close(4321, "app").get(10, TimeUnit.SECONDS);
    rec.awaitEnd();
    assertEquals(1000, rec.closeCode, "aiohttp answers any Close with 1000");
    String http = base.replaceFirst("^ws", "http");
    assertEquals("4321", client.get(http + "/last-close").text(), "the code aiohttp received");
  }

  @Test
  void rejectionCarriesTheStatus() {
    WebSocketHandshakeException e = org.junit.jupiter.api.Assertions.assertThrows(WebSocketHandshakeException.class,
        () -> client.websocket(base + "/reject", new WebSocketRecorder()));
    assertEquals(403, e.status());
  }
}
