package dev.strand.cli;

import dev.strand.Client;
import dev.strand.HttpException;
import dev.strand.Request;
import dev.strand.WebSocket;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * {@code --ws}: each line of stdin goes out as a text message, each message received is written to
 * stdout as a line (binary ones raw, or as a note on a terminal). It ends when the server closes the
 * socket, or when stdin ends: then we close with 1000 and wait for the server's Close. A clean close
 * is exit 0 whatever its code ({@code -v} prints it); a broken connection is a failure like any other.
 */
final class WebSocketSession {
  private final Options o;
  private final OutputStream stdout;
  private final PrintStream err;
  private final boolean terminal;
  /** Completes with the close code and reason, or exceptionally with the socket's error. */
  private final CompletableFuture<String> ended = new CompletableFuture<>();
  private volatile boolean closedByUs;

  WebSocketSession(Options o, OutputStream stdout, PrintStream err, boolean terminal) {
    this.o = o;
    this.stdout = stdout;
    this.err = err;
    this.terminal = terminal;
  }

  /** Opens the socket, relays until it ends; returns the exit code or throws the socket's failure. */
  int run(Client client, Request handshake, InputStream stdin) throws IOException, CliException {
    WebSocket ws = client.websocket(handshake, new Printer());
    if (o.verbose) {
      err.println("* WebSocket open" + (ws.subprotocol() == null ? "" : ", subprotocol " + ws.subprotocol())
          + "; sending stdin line by line");
      err.flush();
    }
    Thread.ofPlatform().daemon().name("strand-stdin").start(() -> sendLines(ws, stdin));
    try {
      String close = ended.get();
      if (o.verbose) {
        err.println("* WebSocket closed: " + close);
      }
      return Failures.OK;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof CliException c) {
        throw c;
      }
      throw e.getCause() instanceof HttpException h ? h : new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      ws.abort();
      return Failures.INTERNAL;
    }
  }

  /** Stdin to text messages, one send at a time (so a fast pipe cannot outrun the socket); Close at its end. */
  private void sendLines(WebSocket ws, InputStream stdin) {
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8))) {
      for (String line; (line = lines.readLine()) != null && !ended.isDone(); ) {
        ws.sendText(line).join();
      }
    } catch (IOException | RuntimeException e) {
      if (ended.isDone()) {
        return; // the socket ended first: a send may fail, and that is no news
      }
      err.println("strand: stopped reading stdin: " + e.getMessage());
    }
    if (!ended.isDone() && ws.isOpen()) {
      if (o.verbose) {
        err.println("* end of stdin: closing with 1000");
      }
      closedByUs = true;
      ws.close(1000, ""); // the listener hears how it ends: the server's Close, or an error

    }
  }

  private synchronized void print(byte[] message) {
    try {
      stdout.write(message);
      stdout.write('\n');
      stdout.flush();
    } catch (IOException e) {
      ended.completeExceptionally(new CliException(Failures.WRITE_ERROR, "cannot write to stdout: " + e.getMessage()));
    }
  }

  /** Runs on the I/O thread: writes and flushes each message, and records how the socket ended. */
  private final class Printer implements WebSocket.Listener {
    @Override
    public void onText(WebSocket ws, String text) {
      print(text.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void onBinary(WebSocket ws, byte[] data) {
      print(terminal ? ("[binary message, " + data.length + " bytes]").getBytes(StandardCharsets.UTF_8) : data);
    }

    @Override
    public void onClose(WebSocket ws, int code, String reason) {
      ended.complete(code + (reason.isEmpty() ? "" : " " + reason)
          + (closedByUs ? " (strand closed at the end of stdin; the server answered)" : " (closed by the server)"));
    }

    @Override
    public void onError(WebSocket ws, HttpException error) {
      ended.completeExceptionally(error);
    }
  }
}
