package dev.strand.internal.exchange;

import dev.strand.HttpException;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.TransportException;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CompletableFuture;

/**
 * Writes a request body after its head, the same way for HTTP/1.1 and HTTP/2; only the framing of
 * the bytes differs ({@link Framing}). A body in memory goes out in slices of {@value #CHUNK} bytes
 * without a copy, so each slice that reaches the socket counts as progress for the write timeout.
 * Any other body is pumped by a virtual thread that reads its InputStream (which may block: a file,
 * a pipe, a user's generator) with at most two pieces in flight: it waits for the previous piece to
 * reach the socket before reading further. So an upload of any size uses bounded memory, and a slow
 * source never blocks an event loop.
 */
public final class RequestBodyWriter {
  static final int CHUNK = 64 * 1024;

  /** How one protocol puts body bytes on its channel. */
  public interface Framing {
    /** Where the pieces are written: the connection's channel, or an HTTP/2 stream's. */
    Channel channel();

    /** A slice of a body in memory, wrapped without a copy; {@code last} for the body's final slice. */
    Object slice(byte[] body, int offset, int length, boolean last);

    /** {@code length} bytes of a streamed body, copied into a buffer of {@code alloc}. */
    Object piece(ByteBufAllocator alloc, byte[] bytes, int length);

    /** What ends a streamed body, or {@code null} if its last piece did (a body of declared length on HTTP/1.1). */
    Object endOfBody();
  }

  /** What the exchange hears of its body. {@link #progress} runs on the event loop, the others on any thread. */
  public interface Listener {
    /** A piece reached the socket: the write timeout starts over. */
    void progress();

    /** The whole body is on the wire. */
    void written();

    /** The body could not be read, or was not the length it declared: the exchange fails with {@code e}. */
    void failed(HttpException e);
  }

  private RequestBodyWriter() {}

  /** Writes {@code body} (in memory, non-empty) in slices, then tells {@code listener} it is written. */
  public static void writeBuffered(Framing framing, byte[] body, Listener listener) {
    Channel ch = framing.channel();
    ChannelFuture last = null;
    for (int off = 0; off < body.length; off += CHUNK) {
      int n = Math.min(CHUNK, body.length - off);
      last = ch.write(framing.slice(body, off, n, off + n == body.length));
      onSuccess(last, listener::progress);
    }
    ch.flush();
    whenWritten(last, listener);
  }

  /**
   * Starts pumping the body of {@code request} on a virtual thread.
   *
   * @param length the declared length, which the body must match, or -1 for a body of unknown length
   */
  public static void pump(Framing framing, Request request, long length, Listener listener) {
    Thread.ofVirtual().name("strand-upload").start(() -> run(framing, request, length, listener));
  }

  private static void run(Framing framing, Request request, long length, Listener listener) {
    Channel ch = framing.channel();
    try (InputStream in = request.body().openStream()) {
      byte[] piece = new byte[CHUNK];
      long sent = 0;
      ChannelFuture previous = null;
      int n;
      while ((n = in.read(piece)) >= 0) {
        if (n == 0) {
          continue;
        }
        sent += n;
        if (length >= 0 && sent > length) {
          listener.failed(new ProtocolException("request body is longer than its Content-Length of " + length
              + " (" + request + ")", request));
          return;
        }
        ChannelFuture written = ch.writeAndFlush(framing.piece(ch.alloc(), piece, n));
        onSuccess(written, listener::progress);
        if (previous != null && !await(previous)) {
          return; // the connection failed; the exchange has its error already
        }
        previous = written;
      }
      if (length >= 0 && sent != length) {
        listener.failed(new ProtocolException("request body ended after " + sent + " bytes but its Content-Length is "
            + length + " (" + request + ")", request));
        return;
      }
      Object end = framing.endOfBody();
      whenWritten(end != null ? ch.writeAndFlush(end) : previous, listener);
    } catch (IOException | RuntimeException e) {
      listener.failed(new TransportException("reading the request body failed: " + e + " (" + request + ")",
          request, e));
    }
  }

  /** Tells {@code listener} the body is written once {@code last} is (at once if nothing was written). */
  private static void whenWritten(ChannelFuture last, Listener listener) {
    if (last == null) {
      listener.written();
    } else {
      onSuccess(last, listener::written);
    }
  }

  private static void onSuccess(ChannelFuture f, Runnable then) {
    f.addListener(done -> {
      if (done.isSuccess()) {
        then.run();
      }
    });
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
