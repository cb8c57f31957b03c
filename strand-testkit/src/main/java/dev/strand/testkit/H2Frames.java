package dev.strand.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * Raw HTTP/2 frames (RFC 9113 4.1) as bytes, for {@link HostilePeer} scripts that speak h2c with prior
 * knowledge. Nothing checks that a frame is valid: a bad length, flag or stream id is written as
 * given, which is the point.
 *
 * <p>Header blocks are HPACK "literal without indexing, new name" fields with plain (not Huffman)
 * strings ({@link #hpack}): every decoder must accept them and they are easy to read in a test.
 *
 * {@snippet :
 * c.readPreface();
 * c.write(H2Frames.settings());
 * int stream = c.awaitRequestStream();
 * c.write(H2Frames.headers(stream, false, H2Frames.hpack(":status", "200", "content-length", "2")));
 * c.write(H2Frames.data(stream, true, "hi".getBytes()));
 * }
 */
public final class H2Frames {
  public static final int DATA = 0x0;
  public static final int HEADERS = 0x1;
  public static final int RST_STREAM = 0x3;
  public static final int SETTINGS = 0x4;
  public static final int PUSH_PROMISE = 0x5;
  public static final int PING = 0x6;
  public static final int GOAWAY = 0x7;
  public static final int WINDOW_UPDATE = 0x8;
  public static final int CONTINUATION = 0x9;

  public static final int FLAG_END_STREAM = 0x1;
  public static final int FLAG_ACK = 0x1;
  public static final int FLAG_END_HEADERS = 0x4;

  public static final int SETTINGS_HEADER_TABLE_SIZE = 0x1;
  public static final int SETTINGS_ENABLE_PUSH = 0x2;
  public static final int SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;
  public static final int SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
  public static final int SETTINGS_MAX_FRAME_SIZE = 0x5;
  public static final int SETTINGS_MAX_HEADER_LIST_SIZE = 0x6;

  public static final int NO_ERROR = 0x0;
  public static final int PROTOCOL_ERROR = 0x1;
  public static final int INTERNAL_ERROR = 0x2;
  public static final int FLOW_CONTROL_ERROR = 0x3;
  public static final int REFUSED_STREAM = 0x7;
  public static final int CANCEL = 0x8;
  public static final int ENHANCE_YOUR_CALM = 0xb;

  private H2Frames() {}

  /** A frame read from the client. */
  public record Frame(int type, int flags, int streamId, byte[] payload) {
    /** Reads one frame, or returns null at the end of the stream. */
    public static Frame read(InputStream in) throws IOException {
      byte[] header = in.readNBytes(9);
      if (header.length < 9) {
        return null;
      }
      int length = (header[0] & 0xff) << 16 | (header[1] & 0xff) << 8 | header[2] & 0xff;
      int streamId = ((header[5] & 0x7f) << 24) | (header[6] & 0xff) << 16 | (header[7] & 0xff) << 8 | header[8] & 0xff;
      byte[] payload = in.readNBytes(length);
      if (payload.length < length) {
        return null;
      }
      return new Frame(header[3] & 0xff, header[4] & 0xff, streamId, payload);
    }

    public boolean has(int flag) {
      return (flags & flag) != 0;
    }

    @Override
    public String toString() {
      return "Frame[type=" + type + ", flags=" + flags + ", stream=" + streamId + ", payload="
          + HexFormat.of().formatHex(payload, 0, Math.min(payload.length, 32)) + (payload.length > 32 ? "..." : "") + "]";
    }
  }

  /** Any frame: a 9-byte header and {@code payload}, whatever the type allows. */
  public static byte[] frame(int type, int flags, int streamId, byte[] payload) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(9 + payload.length);
    out.write(payload.length >>> 16);
    out.write(payload.length >>> 8);
    out.write(payload.length);
    out.write(type);
    out.write(flags);
    writeInt(out, streamId);
    out.writeBytes(payload);
    return out.toByteArray();
  }

  /** SETTINGS with {@code idValuePairs} (id, value, id, value...); none for the defaults. */
  public static byte[] settings(long... idValuePairs) {
    ByteArrayOutputStream p = new ByteArrayOutputStream();
    for (int i = 0; i + 1 < idValuePairs.length; i += 2) {
      p.write((int) (idValuePairs[i] >>> 8));
      p.write((int) idValuePairs[i]);
      writeInt(p, (int) idValuePairs[i + 1]);
    }
    return frame(SETTINGS, 0, 0, p.toByteArray());
  }

  public static byte[] settingsAck() {
    return frame(SETTINGS, FLAG_ACK, 0, new byte[0]);
  }

  /** HEADERS carrying a whole header block (END_HEADERS set), ending the stream if {@code endStream}. */
  public static byte[] headers(int streamId, boolean endStream, byte[] block) {
    return frame(HEADERS, FLAG_END_HEADERS | (endStream ? FLAG_END_STREAM : 0), streamId, block);
  }

  /** HEADERS with the first part of a block: CONTINUATION frames must follow. */
  public static byte[] headersWithoutEnd(int streamId, byte[] blockFragment) {
    return frame(HEADERS, 0, streamId, blockFragment);
  }

  public static byte[] continuation(int streamId, boolean endHeaders, byte[] blockFragment) {
    return frame(CONTINUATION, endHeaders ? FLAG_END_HEADERS : 0, streamId, blockFragment);
  }

  public static byte[] data(int streamId, boolean endStream, byte[] data) {
    return frame(DATA, endStream ? FLAG_END_STREAM : 0, streamId, data);
  }

  public static byte[] rstStream(int streamId, int errorCode) {
    ByteArrayOutputStream p = new ByteArrayOutputStream();
    writeInt(p, errorCode);
    return frame(RST_STREAM, 0, streamId, p.toByteArray());
  }

  public static byte[] goAway(int lastStreamId, int errorCode) {
    ByteArrayOutputStream p = new ByteArrayOutputStream();
    writeInt(p, lastStreamId);
    writeInt(p, errorCode);
    return frame(GOAWAY, 0, 0, p.toByteArray());
  }

  /** PING with 8 opaque bytes taken from {@code opaque}. */
  public static byte[] ping(boolean ack, long opaque) {
    ByteArrayOutputStream p = new ByteArrayOutputStream();
    writeInt(p, (int) (opaque >>> 32));
    writeInt(p, (int) opaque);
    return frame(PING, ack ? FLAG_ACK : 0, 0, p.toByteArray());
  }

  /** WINDOW_UPDATE on {@code streamId} (0: the connection); the reserved bit is left clear. */
  public static byte[] windowUpdate(int streamId, int increment) {
    ByteArrayOutputStream p = new ByteArrayOutputStream();
    writeInt(p, increment);
    return frame(WINDOW_UPDATE, 0, streamId, p.toByteArray());
  }

  /**
   * An HPACK block of {@code nameValuePairs} (name, value, name, value...), each a literal field
   * without indexing and with a new name (RFC 7541 6.2.2), strings not Huffman-coded.
   */
  public static byte[] hpack(String... nameValuePairs) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i + 1 < nameValuePairs.length; i += 2) {
      out.write(0x00);
      writeString(out, nameValuePairs[i]);
      writeString(out, nameValuePairs[i + 1]);
    }
    return out.toByteArray();
  }

  /**
   * One HPACK field "literal with incremental indexing, new name" (RFC 7541 6.2.1): the decoder adds it to
   * its dynamic table, where {@link #hpackIndexed} can refer to it (the newest entry is index 62).
   */
  public static byte[] hpackIndexing(String name, String value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0x40);
    writeString(out, name);
    writeString(out, value);
    return out.toByteArray();
  }

  /** One HPACK "indexed header field" (RFC 7541 6.1): a reference to table entry {@code index}. */
  public static byte[] hpackIndexed(int index) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    writeHpackInt(out, index, 7, 0x80);
    return out.toByteArray();
  }

  /** Concatenates byte arrays: several frames written as one burst. */
  public static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  private static void writeString(ByteArrayOutputStream out, String s) {
    byte[] bytes = s.getBytes(StandardCharsets.ISO_8859_1);
    writeHpackInt(out, bytes.length, 7, 0x00); // H bit clear: not Huffman
    out.writeBytes(bytes);
  }

  /** RFC 7541 5.1: an integer with an N-bit prefix, continued in 7-bit groups. */
  private static void writeHpackInt(ByteArrayOutputStream out, int value, int prefixBits, int firstByteFlags) {
    int max = (1 << prefixBits) - 1;
    if (value < max) {
      out.write(firstByteFlags | value);
      return;
    }
    out.write(firstByteFlags | max);
    value -= max;
    while (value >= 0x80) {
      out.write((value & 0x7f) | 0x80);
      value >>>= 7;
    }
    out.write(value);
  }

  private static void writeInt(ByteArrayOutputStream out, int v) {
    out.write(v >>> 24);
    out.write(v >>> 16);
    out.write(v >>> 8);
    out.write(v);
  }
}
