package dev.strand.hostile;

import static dev.strand.testkit.WebSocketFrames.close;
import static dev.strand.testkit.WebSocketFrames.frame;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.HttpException;
import dev.strand.ProtocolException;
import dev.strand.ReadTimeoutException;
import dev.strand.WebSocket;
import dev.strand.testkit.H2Frames;
import dev.strand.testkit.HostilePeer;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.WebSocketFrames;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * WebSocket servers that break RFC 6455 after the handshake: each ends the socket with one
 * {@link WebSocket.Listener#onError} carrying a ProtocolException that names the problem, and a Close
 * to the server with the status RFC 6455 7.4.1 gives it (1002 protocol, 1007 bad data, 1009 too big).
 * Messages are capped at 1 KiB here.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class WebSocketHostileTest {
  private static final int MAX_MESSAGE = 1024;
  private static final byte[] HI = "hi".getBytes(StandardCharsets.US_ASCII);

  /** The first end the listener hears of: an error, or a close (as its code). */
  static final class End implements WebSocket.Listener {
    final CompletableFuture<Object> end = new CompletableFuture<>();

    @Override
    public void onClose(WebSocket ws, int code, String reason) {
      end.complete(code);
    }

    @Override
    public void onError(WebSocket ws, HttpException error) {
      end.complete(error);
    }
  }

  private static byte[] closeWithCode(int code) {
    return frame(0x88, new byte[] {(byte) (code >>> 8), (byte) code});
  }

  static Stream<Arguments> frames() {
    return Stream.of(
        Arguments.of("a frame announcing 2^62 bytes", WebSocketFrames.frameHead(0x82, 1L << 62), "1009"),
        Arguments.of("one frame over the message limit", frame(0x82, new byte[MAX_MESSAGE + 1]), "1009"),
        Arguments.of("fragments adding up past the limit", H2Frames.concat(frame(0x02, new byte[600]),
            frame(0x80, new byte[600])), "1009"),
        Arguments.of("text that is not UTF-8", frame(0x81, new byte[] {(byte) 0xc3, 0x28}), "1007"),
        Arguments.of("UTF-8 broken across fragments", H2Frames.concat(frame(0x01, new byte[] {'a', (byte) 0xe2}),
            frame(0x80, new byte[] {0x28, 0x28})), "1007"),
        Arguments.of("a masked server frame", WebSocketFrames.maskedFrame(0x81, HI, new byte[] {1, 2, 3, 4}), "1002"),
        Arguments.of("a Ping over 125 bytes", frame(0x89, new byte[126]), "1002"),
        Arguments.of("a Close over 125 bytes", frame(0x88, new byte[126]), "1002"),
        Arguments.of("a fragmented Ping", frame(0x09, HI), "1002"),
        Arguments.of("an unknown opcode", frame(0x83, HI), "1002"),
        Arguments.of("a new message inside a fragmented one", H2Frames.concat(frame(0x01, HI), frame(0x81, HI)), "1002"),
        Arguments.of("Close code 999", closeWithCode(999), "1002"),
        Arguments.of("Close code 1004 (reserved)", closeWithCode(1004), "1002"),
        Arguments.of("Close code 1005 (never sent)", closeWithCode(1005), "1002"),
        Arguments.of("Close code 1006 (never sent)", closeWithCode(1006), "1002"),
        Arguments.of("Close code 1015 (never sent)", closeWithCode(1015), "1002"),
        Arguments.of("Close code 5000", closeWithCode(5000), "1002"),
        Arguments.of("a Close reason that is not UTF-8", frame(0x88, new byte[] {0x03, (byte) 0xe8, (byte) 0xff}),
            "1007"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("frames")
  void badFrame(String name, byte[] bytes, String status) throws Exception {
    CompletableFuture<Integer> clientClose = new CompletableFuture<>();
    try (HostilePeer peer = new HostilePeer(c -> {
          c.write(WebSocketFrames.switchingProtocols(c.readHead()));
          c.write(bytes);
          clientClose.complete(WebSocketFrames.awaitClientClose(c.in()));
        });
        Client client = Client.builder().timeout(Peers.TIMEOUT).webSocketMaxMessageSize(MAX_MESSAGE).build()) {
      End listener = new End();
      WebSocket ws = client.websocket(peer.url("ws", "/"), listener);
      Object end = listener.end.get(5, TimeUnit.SECONDS);
      ProtocolException e = assertInstanceOf(ProtocolException.class, end, String.valueOf(end));
      assertTrue(e.getMessage().contains(status), e.getMessage());
      assertEquals(Integer.parseInt(status), clientClose.get(5, TimeUnit.SECONDS), "the Close the client sent");
      assertFalse(ws.isOpen());
      PoolCheck.empty(client);
    }
  }

  @Test
  void aServerThatNeverAnswersTheCloseIsAReadTimeout() throws Exception {
    try (HostilePeer peer = new HostilePeer(c -> {
          c.write(WebSocketFrames.switchingProtocols(c.readHead()));
          WebSocketFrames.awaitClientClose(c.in());
          c.awaitClientClose(Peers.HOLD); // and never a Close back
        });
        Client client = Client.builder().timeout(Peers.TIMEOUT).build()) {
      End listener = new End();
      WebSocket ws = client.websocket(peer.url("ws", "/"), listener);
      long start = System.nanoTime();
      ws.close(1000, "bye");
      Object end = listener.end.get(5, TimeUnit.SECONDS);
      ReadTimeoutException e = assertInstanceOf(ReadTimeoutException.class, end, String.valueOf(end));
      assertTrue(e.getMessage().toLowerCase(Locale.ROOT).contains("close"), e.getMessage());
      assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(3), "within the 1 s read timeout");
      assertFalse(ws.isOpen());
      PoolCheck.empty(client);
    }
  }

  @Test
  void aValidCloseCodeIsReportedAsIs() throws Exception {
    try (HostilePeer peer = new HostilePeer(c -> {
          c.write(WebSocketFrames.switchingProtocols(c.readHead()));
          c.write(close(4000, "app-defined"));
          WebSocketFrames.awaitClientClose(c.in());
        });
        Client client = Client.builder().timeout(Peers.TIMEOUT).build()) {
      End listener = new End();
      client.websocket(peer.url("ws", "/"), listener);
      assertEquals(4000, listener.end.get(5, TimeUnit.SECONDS));
      PoolCheck.empty(client);
    }
  }
}
