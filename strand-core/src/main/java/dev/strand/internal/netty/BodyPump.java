package dev.strand.internal.netty;

import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.TransportException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/**
 * Streams a request body that is not in memory. A virtual thread reads the body's InputStream (which
 * may block: a file, a pipe, a user's generator) and writes {@value #CHUNK}-byte pieces, with at most
 * two in flight: it waits for the previous piece to reach the socket before reading further. So an
 * upload of any size uses bounded memory, and a slow source never blocks an event loop.
 */
final class BodyPump implements Runnable {
  static final int CHUNK = 64 * 1024;
  private static final ByteBuf LAST_CHUNK =
      Unpooled.unreleasableBuffer(Unpooled.copiedBuffer("0\r\n\r\n", StandardCharsets.US_ASCII)).asReadOnly();

  private final Http1Connection connection;
  private final Exchange exchange;
  private final Channel channel;
  private final long length;

  BodyPump(Http1Connection connection, Exchange exchange, long length) {
    this.connection = connection;
    this.exchange = exchange;
    this.channel = connection.channel;
    this.length = length;
  }

  void start() {
    Thread.ofVirtual().name("strand-upload").start(this);
  }

  @Override
  public void run() {
    Request request = exchange.request;
    boolean chunked = length < 0;
    try (InputStream in = request.body().openStream()) {
      byte[] piece = new byte[CHUNK];
      long sent = 0;
      ChannelFuture previous = null;
      while (true) {
        int n = in.read(piece);
        if (n < 0) {
          break;
        }
        if (n == 0) {
          continue;
        }
        sent += n;
        if (!chunked && sent > length) {
          connection.failFromPump(exchange, new ProtocolException("request body is longer than its Content-Length of "
              + length + " (" + request + ")", request));
          return;
        }
        ByteBuf out = channel.alloc().buffer(n + 12);
        if (chunked) {
          RequestWriter.writeChunkHeader(out, n);
        }
        out.writeBytes(piece, 0, n);
        if (chunked) {
          out.writeByte('\r').writeByte('\n');
        }
        ChannelFuture written = channel.writeAndFlush(out);
        written.addListener(connection.writeProgress);
        if (previous != null && !await(previous)) {
          return; // the connection failed; the exchange has its error already
        }
        previous = written;
      }
      if (!chunked && sent != length) {
        connection.failFromPump(exchange, new ProtocolException("request body ended after " + sent
            + " bytes but its Content-Length is " + length + " (" + request + ")", request));
        return;
      }
      ChannelFuture last = chunked ? channel.writeAndFlush(LAST_CHUNK.duplicate()) : previous;
      if (last == null) {
        connection.requestWritten(exchange);
        return;
      }
      last.addListener(f -> {
        if (f.isSuccess()) {
          connection.requestWritten(exchange);
        }
      });
    } catch (IOException | RuntimeException e) {
      connection.failFromPump(exchange, new TransportException("reading the request body failed: " + e
          + " (" + request + ")", request, e));
    }
  }

  /** Waits for a write without pinning the virtual thread (Netty's own await uses a monitor). */
  private static boolean await(ChannelFuture f) {
    if (!f.isDone()) {
      CompletableFuture<Void> done = new CompletableFuture<>();
      f.addListener(x -> done.complete(null));
      done.join();
    }
    return f.isSuccess();
  }
}
