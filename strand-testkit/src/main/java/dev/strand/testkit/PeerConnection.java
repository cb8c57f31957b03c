package dev.strand.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * One connection accepted by a {@link HostilePeer}, as its script sees it: blocking reads of what the
 * client sent (request heads, or HTTP/2 frames) and writes of exact bytes, whole, in slices, or
 * ended by a TCP reset. Every write is flushed at once. Strings are written as ISO-8859-1, so each
 * char is one byte.
 */
public final class PeerConnection {
  private static final byte[] H2_PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

  private final Socket socket;
  private final int number;
  private final InputStream in;
  private final OutputStream out;

  PeerConnection(Socket socket, int number) throws IOException {
    this.socket = socket;
    this.number = number;
    this.in = socket.getInputStream();
    this.out = socket.getOutputStream();
  }

  /** 1 for the peer's first accepted connection, 2 for the second, and so on. */
  public int number() {
    return number;
  }

  public Socket socket() {
    return socket;
  }

  public InputStream in() {
    return in;
  }

  public OutputStream out() {
    return out;
  }

  /**
   * The next request head, up to and including its blank line, or null if the client closed the
   * connection (or reset it) before sending one. A request body is left unread in {@link #in()}.
   */
  public String readHead() throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int b;
    int tail = 0; // the last four bytes, to spot CRLF CRLF without copying
    try {
      while ((b = in.read()) >= 0) {
        head.write(b);
        tail = (tail << 8) | b;
        if (tail == 0x0d0a0d0a) {
          return head.toString(StandardCharsets.ISO_8859_1);
        }
      }
    } catch (java.net.SocketException e) {
      return null; // reset by the client: as good as closed for a script
    }
    return null;
  }

  /** The value of header {@code name} in {@code head}, or null. */
  public static String header(String head, String name) {
    for (String line : head.split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith(name.toLowerCase(Locale.ROOT) + ":")) {
        return line.substring(name.length() + 1).trim();
      }
    }
    return null;
  }

  /**
   * Reads an HTTP/2 client's connection preface and its first frame, which must be SETTINGS
   * (RFC 9113 3.4); fails otherwise. The server's own SETTINGS are the script's to write.
   */
  public H2Frames.Frame readPreface() throws IOException {
    byte[] preface = in.readNBytes(H2_PREFACE.length);
    if (!Arrays.equals(preface, H2_PREFACE)) {
      throw new IOException("not an HTTP/2 preface: " + new String(preface, StandardCharsets.ISO_8859_1));
    }
    H2Frames.Frame settings = readFrame();
    if (settings == null || settings.type() != H2Frames.SETTINGS) {
      throw new IOException("the preface was not followed by SETTINGS: " + settings);
    }
    return settings;
  }

  /** The next HTTP/2 frame, or null at the end of the stream. */
  public H2Frames.Frame readFrame() throws IOException {
    return H2Frames.Frame.read(in);
  }

  /**
   * Reads frames until a HEADERS frame opens a stream and returns that stream's id; null if the
   * client closed first. Frames in between (SETTINGS acks, WINDOW_UPDATEs) are skipped; a request
   * body, if any, is left to {@link #readFrame()}.
   */
  public Integer awaitRequestStream() throws IOException {
    H2Frames.Frame f;
    while ((f = readFrame()) != null) {
      if (f.type() == H2Frames.HEADERS) {
        return f.streamId();
      }
    }
    return null;
  }

  public void write(String s) throws IOException {
    write(s.getBytes(StandardCharsets.ISO_8859_1));
  }

  public void write(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** Writes {@code bytes} {@code slice} at a time with {@code pause} between slices: a slow or choppy server. */
  public void writeSlices(byte[] bytes, int slice, Duration pause) throws IOException, InterruptedException {
    for (int i = 0; i < bytes.length; i += slice) {
      if (i > 0) {
        Thread.sleep(pause);
      }
      out.write(bytes, i, Math.min(slice, bytes.length - i));
      out.flush();
    }
  }

  /** Closes the connection with a TCP RST instead of a FIN (SO_LINGER 0): "connection reset by peer". */
  public void reset() throws IOException {
    socket.setSoLinger(true, 0);
    socket.close();
  }

  /**
   * Reads and drops whatever the client sends until it closes the connection; true if it did within
   * {@code limit}, false if it still held the connection open then.
   */
  public boolean awaitClientClose(Duration limit) throws IOException {
    int before = socket.getSoTimeout();
    socket.setSoTimeout(Math.toIntExact(Math.max(1, limit.toMillis())));
    try {
      byte[] sink = new byte[8192];
      while (in.read(sink) >= 0) {
        // drained
      }
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (java.net.SocketException e) {
      return true; // reset by the client
    } finally {
      if (!socket.isClosed()) {
        socket.setSoTimeout(before);
      }
    }
  }

  /** {@link #awaitClientClose(Duration)} with the connection's read timeout (10 s unless changed). */
  public boolean awaitClientClose() throws IOException {
    return awaitClientClose(Duration.ofMillis(socket.getSoTimeout()));
  }
}
