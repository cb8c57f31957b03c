package dev.strand.transport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tiny blocking server for cases TestServer cannot script: it reads request heads (no bodies) and
 * lets a function decide, per connection and per request on it, whether to answer or to close.
 */
final class ScriptedServer implements AutoCloseable {
  static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

  /** Decides what to send for request {@code n} (0-based) on connection {@code conn}; null closes. */
  interface Script {
    String answer(int conn, int n);
  }

  private final ServerSocket socket;
  private final AtomicInteger accepted = new AtomicInteger();

  ScriptedServer(Script script) throws IOException {
    socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread.ofVirtual().start(() -> {
      while (!socket.isClosed()) {
        try {
          Socket s = socket.accept();
          int conn = accepted.getAndIncrement();
          Thread.ofVirtual().start(() -> serve(s, conn, script));
        } catch (IOException e) {
          return;
        }
      }
    });
  }

  int port() {
    return socket.getLocalPort();
  }

  String url(String path) {
    return "http://127.0.0.1:" + port() + path;
  }

  int accepted() {
    return accepted.get();
  }

  private static void serve(Socket s, int conn, Script script) {
    try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
      for (int n = 0; readHead(in); n++) {
        String answer = script.answer(conn, n);
        if (answer == null) {
          return;
        }
        out.write(answer.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
      }
    } catch (IOException e) {
      // the client went away
    }
  }

  /** Reads up to the blank line; false at end of stream. */
  private static boolean readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int state = 0;
    int b;
    while ((b = in.read()) >= 0) {
      head.write(b);
      state = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
      if (state == 4) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
