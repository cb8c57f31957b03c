package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.HostilePeer;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.WebSocketFrames;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * WebSocket servers that break RFC 6455 after (or in) the handshake, scripted byte for byte with a
 * {@link HostilePeer}: each ends the socket with exactly one listener call, a {@link ProtocolException}
 * or {@link TransportException} that says what went wrong, a Close with 1002 where one can still be
 * sent, and the socket reporting itself closed.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class WebSocketBadPeerTest {
  private static final byte[] HI = "hi".getBytes(StandardCharsets.US_ASCII);

  /** A frame as a server writes it (unmasked), with a 7-bit length. */
  private static byte[] frame(int b0, byte[] payload) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(b0);
    out.write(payload.length);
    out.writeBytes(payload);
    return out.toByteArray();
  }

  /**
   * Opens a WebSocket to a server that answers the handshake, then writes {@code bytes}, and checks
   * that the client fails the socket with a ProtocolException whose message contains {@code why},
   * telling the server 1002.
   */
  private static void protocolErrorAfter(byte[] bytes, String why) throws Exception {
    CompletableFuture<Integer> clientClose = new CompletableFuture<>();
    try (HostilePeer peer = new HostilePeer(c -> {
          String head = c.readHead();
          OutputStream out = c.out();
          InputStream in = c.in();
          out.write(WebSocketFrames.switchingProtocols(head).getBytes(StandardCharsets.ISO_8859_1));
          out.write(bytes);
          out.flush();
          clientClose.complete(WebSocketFrames.awaitClientClose(in));
        });
        Client client = Client.create()) {
      WebSocketRecorder rec = new WebSocketRecorder();
      WebSocket ws = client.websocket(peer.url("ws", "/ws"), rec);
      HttpException e = rec.awaitError();
      assertInstanceOf(ProtocolException.class, e, e.toString());
      assertTrue(e.getMessage().contains(why) && e.getMessage().contains("1002")
          && e.getMessage().contains(peer.url("ws", "/ws")), e.getMessage());
      assertEquals(Boolean.FALSE, rec.openAtEnd, "the socket is closed once the listener hears of it");
      assertFalse(ws.isOpen());
      assertEquals(1002, clientClose.get(10, TimeUnit.SECONDS), "the Close the client sent");
      assertTrue(rec.messages.isEmpty(), rec.messages.toString());
      assertNull(peer.scriptError(0));
    }
  }

  @Test
  void aMaskedFrameFromTheServer() throws Exception {
    byte[] mask = {1, 2, 3, 4};
    ByteArrayOutputStream f = new ByteArrayOutputStream();
    f.write(0x81);
    f.write(0x80 | HI.length);
    f.writeBytes(mask);
    for (int i = 0; i < HI.length; i++) {
      f.write(HI[i] ^ mask[i]);
    }
    protocolErrorAfter(f.toByteArray(), "mask");
  }

  @Test
  void aContinuationWithNoMessageStarted() throws Exception {
    protocolErrorAfter(frame(0x80, HI), "continuation");
  }

  @Test
  void aCloseWithAnInvalidCode() throws Exception {
    protocolErrorAfter(frame(0x88, new byte[] {0x03, (byte) 0xe7}), "999"); // 999
    protocolErrorAfter(frame(0x88, new byte[] {0x03, (byte) 0xed}), "1005"); // 1005 must not be on the wire
  }

  @Test
  void aCloseWithAOneBytePayload() throws Exception {
    protocolErrorAfter(frame(0x88, new byte[] {0x03}), "close control frame with payload len 1");
  }

  @Test
  void aControlFrameOver125Bytes() throws Exception {
    ByteArrayOutputStream f = new ByteArrayOutputStream();
    f.write(0x89); // Ping
    f.write(126);
    f.write(0);
    f.write(126);
    f.writeBytes(new byte[126]);
    protocolErrorAfter(f.toByteArray(), "125");
  }

  @Test
  void aFragmentedControlFrame() throws Exception {
    protocolErrorAfter(frame(0x09, HI), "fragmented"); // a Ping without FIN
  }

  @Test
  void reservedBitsWithoutAnExtension() throws Exception {
    protocolErrorAfter(frame(0xc1, HI), "RSV"); // RSV1: no permessage-deflate was agreed
    protocolErrorAfter(frame(0xa1, HI), "RSV"); // RSV2
    protocolErrorAfter(frame(0x91, HI), "RSV"); // RSV3
  }

  @Test
  void theServerDroppingTcpWithoutACloseIs1006() throws Exception {
    try (HostilePeer peer = new HostilePeer(c -> {
          String head = c.readHead();
          OutputStream out = c.out();
          out.write(WebSocketFrames.switchingProtocols(head).getBytes(StandardCharsets.ISO_8859_1));
          out.write(frame(0x81, HI));
          out.flush();
        });
        Client client = Client.create()) {
      WebSocketRecorder rec = new WebSocketRecorder();
      WebSocket ws = client.websocket(peer.url("ws", "/ws"), rec);
      assertEquals("hi", rec.nextText());
      HttpException e = rec.awaitError();
      assertInstanceOf(TransportException.class, e);
      assertFalse(e instanceof ProtocolException, e.toString());
      assertEquals("WebSocket connection closed without a Close frame (1006) (GET " + peer.url("ws", "/ws") + ")",
          e.getMessage());
      assertEquals(Boolean.FALSE, rec.openAtEnd);
      assertFalse(ws.isOpen());
    }
  }

  @Test
  void aWrongAcceptFailsTheHandshake() throws Exception {
    CompletableFuture<Integer> hungUp = new CompletableFuture<>();
    try (HostilePeer peer = new HostilePeer(c -> {
          c.readHead();
          OutputStream out = c.out();
          InputStream in = c.in();
          out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              + "Sec-WebSocket-Accept: " + WebSocketFrames.accept("not the key") + "\r\n\r\n")
              .getBytes(StandardCharsets.ISO_8859_1));
          out.flush();
          hungUp.complete(in.read());
        });
        Client client = Client.create()) {
      WebSocketRecorder rec = new WebSocketRecorder();
      ProtocolException e = assertThrows(ProtocolException.class, () -> client.websocket(peer.url("ws", "/ws"), rec));
      assertTrue(e.getMessage().startsWith("WebSocket handshake failed: ")
          && e.getMessage().contains("Sec-WebSocket-Accept")
          && e.getMessage().endsWith("(GET " + peer.url("ws", "/ws") + ")"), e.getMessage());
      assertEquals(0, rec.opens.get());
      assertEquals(0, rec.ends.get(), "no listener call for a socket that never opened");
      assertEquals(-1, hungUp.get(10, TimeUnit.SECONDS), "the client closed the connection");
    }
  }
}
