package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.HostilePeer;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The opening handshake is an HTTP/1.1 exchange like any other: the same events, the same response
 * parser and its errors, and a connection that leaves the pool once the server switched.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class WebSocketHandshakeTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @Test
  void theHandshakeHasTheEventsOfAPlainGet() throws Exception {
    EventListenerTest.Recorder get = new EventListenerTest.Recorder();
    try (Client client = Client.builder().eventListener(get).build()) {
      client.get(server.url("/small"));
    }
    EventListenerTest.Recorder ws = new EventListenerTest.Recorder();
    try (Client client = Client.builder().eventListener(ws).build()) {
      WebSocket socket = client.websocket(server.url("/ws/echo").replace("http", "ws"), new WebSocketRecorder());
      socket.close(1000, "").get(5, TimeUnit.SECONDS);
    }
    List<String> expected = new ArrayList<>(get.events.subList(0, get.events.indexOf("responseHeaders 200")));
    expected.add("responseHeaders 101");
    assertEquals(List.of("callStart", "acquireStart", "connectStart", "connectEnd", "acquired HTTP/1.1 reused=false",
        "headersSent 0", "responseHeaders 101"), expected);
    assertEquals(expected, ws.events.subList(0, expected.size()));
  }

  @Test
  void aMalformed101IsTheSameErrorAsForAnyRequest() throws Exception {
    try (HostilePeer peer = new HostilePeer(c -> {
          c.readHead();
          c.out().write("HTTP/1.1 101 Switching Protocols\r\nUpgrade websocket\r\n\r\n"
              .getBytes(StandardCharsets.ISO_8859_1));
          c.out().flush();
          c.awaitClientClose();
        });
        Client client = Client.create()) {
      ProtocolException plain = assertThrows(ProtocolException.class, () -> client.get(peer.url("/ws")));
      ProtocolException handshake = assertThrows(ProtocolException.class,
          () -> client.websocket(peer.url("ws", "/ws"), new WebSocketRecorder()));
      assertTrue(plain.getMessage().contains("no colon after the field name 'Upgrade'"), plain.getMessage());
      assertEquals(plain.getMessage(), handshake.getMessage());
    }
  }

  @Test
  void anOpenSocketHoldsNoPoolSlot() throws Exception {
    try (Client client = Client.create()) {
      WebSocket socket = client.websocket(server.url("/ws/echo").replace("http", "ws"), new WebSocketRecorder());
      ClientStats.OriginStats upgrades = client.stats().origins().get("ws://127.0.0.1:" + server.port());
      assertEquals(List.of(0, 0, 0, 0),
          List.of(upgrades.open(), upgrades.idle(), upgrades.inUse(), upgrades.pending()), upgrades.toString());
      assertEquals(1, client.stats().connectionsOpened(), "the handshake's connection, counted once");
      socket.close(1000, "").get(5, TimeUnit.SECONDS);
    }
  }
}
