package dev.strand.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A misbehaving server: a loopback socket that hands every accepted connection to a script, which
 * reads what the client sent and writes exact bytes back, broken ones included. Use it to check that
 * a client survives a server that lies about framing, stalls, floods or resets.
 *
 * <p>Contract:
 * <ul>
 *   <li>It listens on {@code 127.0.0.1} on a free port from construction until {@link #close()}.
 *   <li>Each connection runs the script on its own virtual thread, with a {@link PeerConnection} that
 *       knows its number (1 for the first accepted) and reads and writes the socket. Nothing is read
 *       before the script asks: an HTTP/1 script calls {@link PeerConnection#readHead()}, an HTTP/2
 *       one {@link PeerConnection#readPreface()}.
 *   <li>The connection is closed when the script returns. An exception from the script ends only that
 *       connection and is kept for {@link #scriptError}; a read blocks at most 10 s
 *       (see {@link PeerConnection#socket()} to change it), so a script waiting on the client never
 *       waits forever.
 *   <li>{@link #close()} stops accepting and closes every connection still open.
 * </ul>
 *
 * {@snippet :
 * try (HostilePeer peer = new HostilePeer(c -> {
 *       c.readHead();
 *       c.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi, and bytes no response asked for");
 *       c.awaitClientClose();
 *     })) {
 *   // point the client under test at peer.url("/"), then check what it made of it
 * }
 * }
 */
public final class HostilePeer implements AutoCloseable {
  /** What the server does with one connection. */
  @FunctionalInterface
  public interface Script {
    void serve(PeerConnection connection) throws Exception;
  }

  private final ServerSocket server;
  private final AtomicInteger accepted = new AtomicInteger();
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final BlockingQueue<Throwable> scriptErrors = new LinkedBlockingQueue<>();

  /** Starts listening; every connection is served by {@code script}. */
  public HostilePeer(Script script) throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread.ofVirtual().name("hostile-peer-" + port()).start(() -> acceptLoop(script));
  }

  private void acceptLoop(Script script) {
    while (!server.isClosed()) {
      Socket socket;
      try {
        socket = server.accept();
      } catch (IOException e) {
        return; // closed
      }
      int number = accepted.incrementAndGet();
      open.add(socket);
      Thread.ofVirtual().name("hostile-peer-" + port() + "-" + number).start(() -> {
        try (socket) {
          socket.setSoTimeout(10_000);
          script.serve(new PeerConnection(socket, number));
        } catch (Throwable e) {
          if (!server.isClosed()) { // errors from sockets closed under the script by close() are expected
            scriptErrors.add(e);
          }
        } finally {
          open.remove(socket);
        }
      });
    }
  }

  public int port() {
    return server.getLocalPort();
  }

  /** {@code http://127.0.0.1:PORT} followed by {@code path}. */
  public String url(String path) {
    return url("http", path);
  }

  /** {@code scheme://127.0.0.1:PORT} followed by {@code path} ({@code "ws"} for WebSocket clients). */
  public String url(String scheme, String path) {
    return scheme + "://127.0.0.1:" + port() + path;
  }

  /** Connections accepted so far. */
  public int accepted() {
    return accepted.get();
  }

  /** The next error a script threw, waiting up to {@code millis} for one; null if none came. */
  public Throwable scriptError(long millis) throws InterruptedException {
    return scriptErrors.poll(millis, TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket s : open) {
      try {
        s.close();
      } catch (IOException ignored) {
        // closing is all that is asked
      }
    }
  }
}
