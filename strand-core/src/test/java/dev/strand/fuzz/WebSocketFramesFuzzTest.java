package dev.strand.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.strand.HttpException;
import dev.strand.Request;
import dev.strand.Response;
import dev.strand.WebSocket;
import dev.strand.internal.websocket.RealWebSocket;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;

/**
 * Frames from a WebSocket server (data, fragments, control frames and Close payloads) through the decoder
 * configured as WebSocketConnector configures it and into RealWebSocket. Messages stay within the limit, a
 * broken stream ends in onError with a Strand exception, and nothing escapes the pipeline.
 */
class WebSocketFramesFuzzTest {
  private static final int MAX_MESSAGE = 4096;
  private static final Request REQUEST = Request.builder("GET", "http://example.test/ws").build();
  private static final Response HANDSHAKE = Response.builder(101).request(REQUEST).build();

  @FuzzTest
  void serverFrames(byte[] wire) {
    EmbeddedChannel ch = new EmbeddedChannel();
    ch.pipeline().addLast("ws-decoder", new WebSocket13FrameDecoder(WebSocketDecoderConfig.newBuilder()
        .expectMaskedFrames(false).allowMaskMismatch(false).allowExtensions(true)
        .maxFramePayloadLength(MAX_MESSAGE).closeOnProtocolViolation(false).build()));
    Checks checks = new Checks();
    RealWebSocket ws = new RealWebSocket(ch, HANDSHAKE, null, checks, MAX_MESSAGE);
    ch.pipeline().addLast("ws", ws);
    ws.start();
    for (byte[] piece : Fuzzing.pieces(wire)) {
      if (!ch.isOpen()) {
        break;
      }
      ch.writeInbound(Unpooled.wrappedBuffer(piece));
    }
    ch.close();
    ch.runPendingTasks();
    ch.checkException();
    ch.finishAndReleaseAll();
    if (checks.violation != null) {
      throw new AssertionError(checks.violation);
    }
  }

  /** Notes a broken promise; the listener's own exceptions would be caught by RealWebSocket. */
  private static final class Checks implements WebSocket.Listener {
    String violation;
    @Override
    public void onText(WebSocket ws, String text) {
      if (text.length() > MAX_MESSAGE) {
        violation = ("text message of " + text.length() + " chars past " + MAX_MESSAGE);
      }
    }

    @Override
    public void onBinary(WebSocket ws, byte[] data) {
      if (data.length > MAX_MESSAGE) {
        violation = ("binary message of " + data.length + " bytes past " + MAX_MESSAGE);
      }
    }

    @Override
    public void onClose(WebSocket ws, int code, String reason) {
      if (code < 1000 || code >= 5000) {
        violation = ("close code " + code + " reported");
      }
    }

    @Override
    public void onError(WebSocket ws, HttpException error) {
      // a Strand exception, by the listener's type
    }
  }
}
