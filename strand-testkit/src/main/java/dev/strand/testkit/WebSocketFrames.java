package dev.strand.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * RFC 6455 pieces for {@link HostilePeer} scripts that play a WebSocket server: the handshake answer,
 * server frames as raw bytes (valid or not), and reading the client's Close.
 */
public final class WebSocketFrames {
  private WebSocketFrames() {}

  /** The 101 a correct server sends for the request {@code head}. */
  public static String switchingProtocols(String head) {
    String key = PeerConnection.header(head, "Sec-WebSocket-Key");
    if (key == null) {
      throw new IllegalArgumentException("not a WebSocket handshake: " + head);
    }
    return "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Accept: " + accept(key) + "\r\n\r\n";
  }

  /** RFC 6455 4.2.2: base64(SHA-1(key + GUID)). */
  public static String accept(String key) {
    try {
      byte[] sha1 = MessageDigest.getInstance("SHA-1")
          .digest((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").getBytes(StandardCharsets.US_ASCII));
      return Base64.getEncoder().encodeToString(sha1);
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * A frame as a server writes it, unmasked: first byte {@code b0} (FIN, RSV bits, opcode), then the
   * shortest length encoding for {@code payload}.
   */
  public static byte[] frame(int b0, byte[] payload) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(b0);
    writeLength(out, 0, payload.length);
    out.writeBytes(payload);
    return out.toByteArray();
  }

  /** The head of a frame that announces {@code length} payload bytes, for payloads streamed separately. */
  public static byte[] frameHead(int b0, long length) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(b0);
    writeLength(out, 0, length);
    return out.toByteArray();
  }

  /** A frame masked with {@code mask}, which RFC 6455 5.1 forbids from a server. */
  public static byte[] maskedFrame(int b0, byte[] payload, byte[] mask) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(b0);
    writeLength(out, 0x80, payload.length);
    out.writeBytes(mask);
    for (int i = 0; i < payload.length; i++) {
      out.write(payload[i] ^ mask[i % 4]);
    }
    return out.toByteArray();
  }

  /** A Close frame with {@code code} and {@code reason}. */
  public static byte[] close(int code, String reason) {
    byte[] r = reason.getBytes(StandardCharsets.UTF_8);
    byte[] payload = new byte[2 + r.length];
    payload[0] = (byte) (code >>> 8);
    payload[1] = (byte) code;
    System.arraycopy(r, 0, payload, 2, r.length);
    return frame(0x88, payload);
  }

  private static void writeLength(ByteArrayOutputStream out, int maskBit, long length) {
    if (length < 126) {
      out.write(maskBit | (int) length);
    } else if (length <= 0xffff) {
      out.write(maskBit | 126);
      out.write((int) (length >>> 8));
      out.write((int) length);
    } else {
      out.write(maskBit | 127);
      for (int shift = 56; shift >= 0; shift -= 8) {
        out.write((int) (length >>> shift));
      }
    }
  }

  /**
   * Reads the client's frames until a Close or the end of the stream and returns the Close's status
   * code, -1 if it had none, or -2 if no Close came.
   */
  public static int awaitClientClose(InputStream in) throws IOException {
    while (true) {
      int b0 = in.read();
      int b1 = in.read();
      if (b0 < 0 || b1 < 0) {
        return -2;
      }
      long length = b1 & 0x7f;
      if (length == 126) {
        length = (in.read() << 8) | in.read();
      } else if (length == 127) {
        length = 0;
        for (int i = 0; i < 8; i++) {
          length = (length << 8) | in.read();
        }
      }
      byte[] mask = (b1 & 0x80) != 0 ? in.readNBytes(4) : new byte[4];
      byte[] payload = in.readNBytes((int) length);
      for (int i = 0; i < payload.length; i++) {
        payload[i] ^= mask[i % 4];
      }
      if ((b0 & 0x0f) == 0x8) {
        return payload.length < 2 ? -1 : ((payload[0] & 0xff) << 8) | (payload[1] & 0xff);
      }
    }
  }
}
