package dev.strand.hostile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback server that answers {@code /prop} with one {@link ResponseWire}, written piece by piece with a
 * flush and a short pause between pieces (so they leave as separate TCP segments), and {@code /after} with
 * a small fixed response. It records which connection carried each request, to tell reuse from a new
 * connection.
 */
final class SplitResponseServer implements AutoCloseable {
  static final String AFTER_BODY = "after";

  /** One request as the server saw it: the connection's number (from 0, in accept order) and the path. */
  record Seen(int connection, String path) {}

  private final ServerSocket socket;
  private final ResponseWire wire;
  private final AtomicInteger accepted = new AtomicInteger();
  private final List<Seen> seen = new CopyOnWriteArrayList<>();

  SplitResponseServer(ResponseWire wire) throws IOException {
    this.wire = wire;
    this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread.ofVirtual().name("split-response-server").start(this::acceptLoop);
  }

  String url(String path) {
    return "http://127.0.0.1:" + socket.getLocalPort() + path;
  }

  int accepted() {
    return accepted.get();
  }

  List<Seen> seen() {
    return List.copyOf(seen);
  }

  private void acceptLoop() {
    while (!socket.isClosed()) {
      try {
        Socket s = socket.accept();
        int n = accepted.getAndIncrement();
        Thread.ofVirtual().start(() -> serve(s, n));
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket s, int connection) {
    try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
      s.setSoTimeout(5_000); // a client that never sends or closes does not hold a thread forever
      s.setTcpNoDelay(true);
      for (String path = readPath(in); path != null; path = readPath(in)) {
        seen.add(new Seen(connection, path));
        if (path.equals("/prop")) {
          for (byte[] piece : wire.pieces()) {
            out.write(piece);
            out.flush();
            Thread.sleep(1);
          }
          if (wire.serverCloses()) {
            return;
          }
        } else {
          out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + AFTER_BODY.length() + "\r\n\r\n" + AFTER_BODY)
              .getBytes(StandardCharsets.US_ASCII));
          out.flush();
        }
      }
    } catch (IOException | InterruptedException e) {
      // The client went away (or reset): this connection is over.
    }
  }

  /** The next request head's path (its body, if any, is not read: the client sends GETs), or null at the end. */
  private static String readPath(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        return null;
      }
      head.write(b);
      matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : b == '\r' ? 1 : 0;
    }
    String line = head.toString(StandardCharsets.ISO_8859_1);
    return line.substring(line.indexOf(' ') + 1, line.indexOf(' ', line.indexOf(' ') + 1));
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
