package dev.strand;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A misbehaving peer: a blocking loopback server that reads each connection's first request head and
 * hands the socket to a script, which writes exact bytes. The connection is closed when the script
 * returns; what the script throws only ends that connection.
 */
final class RawPeer implements AutoCloseable {
  /** Serves one connection, given the request head it sent (up to and including the blank line). */
  interface Script {
    void serve(String head, InputStream in, OutputStream out, Socket socket) throws Exception;
  }

  private final ServerSocket socket;
  private final BlockingQueue<Throwable> scriptErrors = new LinkedBlockingQueue<>();

  RawPeer(Script script) throws IOException {
    socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread.ofVirtual().name("raw-peer").start(() -> {
      while (!socket.isClosed()) {
        Socket s;
        try {
          s = socket.accept();
        } catch (IOException e) {
          return;
        }
        Thread.ofVirtual().start(() -> {
          try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            s.setSoTimeout(10_000); // a script that waits on the client never waits forever
            script.serve(readHead(in), in, out, s);
          } catch (Exception e) {
            scriptErrors.add(e);
          }
        });
      }
    });
  }

  int port() {
    return socket.getLocalPort();
  }

  String url(String scheme, String path) {
    return scheme + "://127.0.0.1:" + port() + path;
  }

  /** The 101 a correct server sends for {@code head}. */
  static String switchingProtocols(String head) {
    return "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Accept: " + accept(header(head, "Sec-WebSocket-Key")) + "\r\n\r\n";
  }

  /** RFC 6455 4.2.2: base64(SHA-1(key + GUID)). */
  static String accept(String key) {
    try {
      byte[] sha1 = MessageDigest.getInstance("SHA-1")
          .digest((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").getBytes(StandardCharsets.US_ASCII));
      return Base64.getEncoder().encodeToString(sha1);
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  static String header(String head, String name) {
    for (String line : head.split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith(name.toLowerCase(Locale.ROOT) + ":")) {
        return line.substring(name.length() + 1).trim();
      }
    }
    throw new AssertionError("no " + name + " in " + head);
  }

  /**
   * Reads the client's frames until a Close or the end of the stream and returns the Close's status
   * code, -1 if it had none, or -2 if no Close came.
   */
  static int awaitClientClose(InputStream in) throws IOException {
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

  /** The first error a script threw within {@code millis}, or null. */
  Throwable scriptError(long millis) throws InterruptedException {
    return scriptErrors.poll(millis, TimeUnit.MILLISECONDS);
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0) {
      head.write(b);
      byte[] h = head.toByteArray();
      int n = h.length;
      if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n') {
        break;
      }
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
