package dev.strand.internal.websocket;

import dev.strand.HttpException;
import dev.strand.ProtocolException;
import dev.strand.ReadTimeoutException;
import dev.strand.Request;
import dev.strand.ResponseHead;
import dev.strand.TransportException;
import dev.strand.WebSocket;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.compression.DecompressionException;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * An open WebSocket: the last handler of its channel's pipeline once the handshake is done (Netty's
 * frame decoder and encoder, and the permessage-deflate codec if agreed, sit before it). Turns frames
 * into listener calls, reassembles fragmented messages, answers Pings, and runs the closing handshake.
 *
 * <p>All state is confined to the channel's event loop; the public methods hop onto it. Reading is
 * on demand (auto-read is off): the next read is requested when a batch of frames has been handled,
 * so a listener that takes its time holds the peer back through TCP.
 */
public final class RealWebSocket extends ChannelInboundHandlerAdapter implements WebSocket {
  private static final int NO_STATUS = 1005;
  private static final Duration DEFAULT_CLOSE_WAIT = Duration.ofSeconds(5);

  private final Channel channel;
  private final ResponseHead handshake;
  /** The handshake call's listener side, or {@code null}. */
  private final dev.strand.internal.events.CallEvents events;
  private final String subprotocol;
  private final Listener listener;
  private final int maxMessageSize;
  private final Duration closeWait;
  private final String where; // "GET ws://host/path", for messages
  private final CompletableFuture<Void> closed = new CompletableFuture<>();

  private ChannelHandlerContext ctx;
  private volatile boolean closeSent;
  private volatile String abortedBecause;
  private boolean closeReceived;
  private boolean ended;
  private ScheduledFuture<?> closeTimer;
  // The message being reassembled from fragments: its kind and bytes so far.
  private boolean fragmentIsText;
  private ByteArrayOutputStream fragments;

  /**
   * @param handshake the 101 response
   * @param subprotocol the selected subprotocol, or {@code null}
   * @param maxMessageSize largest message accepted, in bytes, after decompression
   */
  public RealWebSocket(Channel channel, ResponseHead handshake, String subprotocol, Listener listener,
      int maxMessageSize) {
    this.events = dev.strand.internal.events.CallEvents.of(handshake.request());
    this.channel = channel;
    this.handshake = handshake;
    this.subprotocol = subprotocol;
    this.listener = listener;
    this.maxMessageSize = maxMessageSize;
    Request request = handshake.request();
    Duration read = request.timeout() == null ? null : request.timeout().read();
    this.closeWait = read == null ? DEFAULT_CLOSE_WAIT : read;
    this.where = "GET " + WebSocketUrls.toWebSocketUrl(request.url());
    channel.closeFuture().addListener(f -> closed.complete(null));
  }

  /** Tells the listener the socket is open and starts reading; on the event loop, once this handler is in place. */
  public void start() {
    if (ended) {
      return;
    }
    if (events != null) {
      events.webSocketOpen(this);
    }
    call(() -> listener.onOpen(this));
    if (!ended) {
      ctx.read();
    }
  }

  /** Drops the connection and reports {@code why} to the listener (closing the client does this). */
  public void abort(String why) {
    if (abortedBecause == null) {
      abortedBecause = why;
    }
    channel.close();
  }

  // ---- WebSocket ----

  @Override
  public CompletableFuture<Void> sendText(String text) {
    Objects.requireNonNull(text, "text");
    return send(() -> new TextWebSocketFrame(text));
  }

  @Override
  public CompletableFuture<Void> sendBinary(byte[] data) {
    Objects.requireNonNull(data, "data");
    byte[] copy = data.clone(); // the caller may reuse its array before the frame is written
    return send(() -> new BinaryWebSocketFrame(Unpooled.wrappedBuffer(copy)));
  }

  @Override
  public CompletableFuture<Void> ping(byte[] payload) {
    Objects.requireNonNull(payload, "payload");
    if (payload.length > 125) {
      throw new IllegalArgumentException("a Ping payload has at most 125 bytes, not " + payload.length);
    }
    byte[] copy = payload.clone();
    return send(() -> new PingWebSocketFrame(Unpooled.wrappedBuffer(copy)));
  }

  @Override
  public CompletableFuture<Void> close(int code, String reason) {
    CloseCodes.checkSendable(code);
    Objects.requireNonNull(reason, "reason");
    if (reason.getBytes(StandardCharsets.UTF_8).length > 123) {
      throw new IllegalArgumentException("a close reason has at most 123 bytes of UTF-8: " + reason);
    }
    onLoop(() -> {
      if (ended || closeSent) {
        return;
      }
      sendClose(code, reason);
      closeTimer = channel.eventLoop().schedule(() -> {
        end(new ReadTimeoutException("the peer did not answer the WebSocket Close within "
            + closeWait.toMillis() + " ms (" + where + ")", handshake.request()));
        channel.close();
      }, closeWait.toNanos(), TimeUnit.NANOSECONDS);
    });
    return closed.copy();
  }

  @Override
  public void abort() {
    abort("WebSocket aborted (" + where + ")");
  }

  @Override
  public boolean isOpen() {
    return !closeSent && channel.isActive();
  }

  @Override
  public String subprotocol() {
    return subprotocol;
  }

  @Override
  public ResponseHead handshake() {
    return handshake;
  }

  @Override
  public String toString() {
    return "WebSocket(" + where + ")";
  }

  // ---- frames in ----

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      if (msg instanceof WebSocketFrame frame && !ended && !closeReceived) {
        onFrame(frame);
      }
    } finally {
      ReferenceCountUtil.release(msg); // also the empty end of the 101 response, which arrives here
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    if (!ended && !closeReceived) {
      ctx.read();
    }
  }

  private void onFrame(WebSocketFrame frame) {
    if (frame.rsv() != 0) {
      // Netty's decoder lets reserved bits through because extensions are allowed; permessage-deflate,
      // the only one we offer, clears RSV1 of what it inflated, so any bit left was never agreed.
      fail(WebSocketCloseStatus.PROTOCOL_ERROR.code(), new ProtocolException("WebSocket frame has reserved bits (RSV "
          + frame.rsv() + ") that no agreed extension defines; closed with 1002 (" + where + ")", handshake.request()));
      return;
    }
    ByteBuf content = frame.content();
    if (frame instanceof TextWebSocketFrame || frame instanceof BinaryWebSocketFrame) {
      // Netty's decoder rejects a new data frame inside a fragmented message, so none is in progress here.
      fragmentIsText = frame instanceof TextWebSocketFrame;
      if (tooBig(content.readableBytes())) {
        return;
      }
      if (frame.isFinalFragment()) {
        deliver(fragmentIsText, ByteBufUtil.getBytes(content));
      } else {
        fragments = new ByteArrayOutputStream(content.readableBytes() * 2);
        append(content);
      }
    } else if (frame instanceof ContinuationWebSocketFrame) {
      if (fragments == null || tooBig((long) fragments.size() + content.readableBytes())) {
        return;
      }
      append(content);
      if (frame.isFinalFragment()) {
        byte[] message = fragments.toByteArray();
        fragments = null;
        deliver(fragmentIsText, message);
      }
    } else if (frame instanceof PingWebSocketFrame) {
      if (!closeSent) {
        channel.writeAndFlush(new PongWebSocketFrame(content.retainedDuplicate()));
      }
      byte[] payload = ByteBufUtil.getBytes(content);
      call(() -> listener.onPing(this, payload));
    } else if (frame instanceof PongWebSocketFrame) {
      byte[] payload = ByteBufUtil.getBytes(content);
      call(() -> listener.onPong(this, payload));
    } else if (frame instanceof CloseWebSocketFrame close) {
      onClose(close);
    }
  }

  private void append(ByteBuf content) {
    try {
      content.getBytes(content.readerIndex(), fragments, content.readableBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not throw
    }
  }

  private void deliver(boolean text, byte[] message) {
    if (events != null) {
      events.webSocketMessage(text, message.length);
    }
    if (!text) {
      call(() -> listener.onBinary(this, message));
      return;
    }
    String decoded;
    try {
      decoded = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(message)).toString();
    } catch (CharacterCodingException e) {
      fail(WebSocketCloseStatus.INVALID_PAYLOAD_DATA.code(),
          new ProtocolException("WebSocket text message is not valid UTF-8; closed with 1007 (" + where + ")",
              handshake.request(), e));
      return;
    }
    call(() -> listener.onText(this, decoded));
  }

  private boolean tooBig(long size) {
    if (size <= maxMessageSize) {
      return false;
    }
    fragments = null;
    fail(WebSocketCloseStatus.MESSAGE_TOO_BIG.code(), tooBigException(null));
    return true;
  }

  private ProtocolException tooBigException(Throwable cause) {
    return new ProtocolException("WebSocket message exceeds the limit of " + maxMessageSize
        + " bytes (webSocketMaxMessageSize); closed with 1009 (" + where + ")", handshake.request(), cause);
  }

  private void onClose(CloseWebSocketFrame close) {
    if (close.statusCode() >= 5000) {
      // Netty's decoder lets codes of 5000 and above through; RFC 6455 7.4.2 defines none, so the peer erred.
      fail(WebSocketCloseStatus.PROTOCOL_ERROR.code(), new ProtocolException("WebSocket Close with invalid status code "
          + close.statusCode() + "; closed with 1002 (" + where + ")", handshake.request()));
      return;
    }
    closeReceived = true;
    int code = close.statusCode() < 0 ? NO_STATUS : close.statusCode();
    String reason = close.statusCode() < 0 ? "" : close.reasonText();
    if (!closeSent) {
      // Echo the status (RFC 6455 5.5.1), then close: the handshake is complete on both sides.
      closeSent = true;
      CloseWebSocketFrame answer = code == NO_STATUS ? new CloseWebSocketFrame() : new CloseWebSocketFrame(code, null);
      channel.writeAndFlush(answer).addListener(ChannelFutureListener.CLOSE);
    } else {
      channel.close();
    }
    if (!ended) {
      ended = true;
      cancelCloseTimer();
      if (events != null) {
        events.webSocketClosed(code, reason, null);
      }
      try {
        listener.onClose(this, code, reason);
      } catch (RuntimeException ignored) {
        // The socket has ended; there is nobody left to tell.
      }
    }
  }

  // ---- the end ----

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof CorruptedWebSocketFrameException e) {
      // The frame decoder has stopped reading (it is configured not to close: see WebSocketConnector).
      int code = e.closeStatus().code();
      fail(code, code == WebSocketCloseStatus.MESSAGE_TOO_BIG.code() ? tooBigException(e)
          : new ProtocolException("WebSocket protocol error: " + e.getMessage() + "; closed with " + code
              + " (" + where + ")", handshake.request(), e));
    } else if (cause instanceof DecompressionException e && String.valueOf(e.getMessage()).contains("maximum")) {
      fail(WebSocketCloseStatus.MESSAGE_TOO_BIG.code(), tooBigException(e)); // inflating hit maxMessageSize
    } else if (cause instanceof HttpException e) {
      end(e);
      channel.close();
    } else {
      end(new TransportException("WebSocket I/O error: " + cause + " (" + where + ")", handshake.request(), cause));
      channel.close();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    fragments = null;
    String aborted = abortedBecause;
    end(aborted != null
        ? new TransportException(aborted, handshake.request())
        : new TransportException("WebSocket connection closed without a Close frame (1006) (" + where + ")",
            handshake.request()));
    ctx.fireChannelInactive();
  }

  /** Ends the socket for a reason of ours: tells the peer with {@code code}, then drops the connection. */
  private void fail(int code, HttpException error) {
    boolean sendClose = !closeSent;
    closeSent = true; // before the listener hears of it, so that the socket already reports itself closed
    end(error);
    if (sendClose) {
      channel.writeAndFlush(new CloseWebSocketFrame(code, null)).addListener(ChannelFutureListener.CLOSE);
    } else {
      channel.close();
    }
  }

  /** Reports the error, unless the socket already ended. */
  private void end(HttpException error) {
    if (ended) {
      return;
    }
    ended = true;
    cancelCloseTimer();
    if (events != null) {
      events.webSocketClosed(-1, null, error);
    }
    try {
      listener.onError(this, error);
    } catch (RuntimeException ignored) {
      // The socket has ended; there is nobody left to tell.
    }
  }

  private void cancelCloseTimer() {
    if (closeTimer != null) {
      closeTimer.cancel(false);
      closeTimer = null;
    }
  }

  /** Runs a listener callback; one that throws ends the socket with 1011. */
  private void call(Runnable callback) {
    try {
      callback.run();
    } catch (RuntimeException e) {
      fail(WebSocketCloseStatus.INTERNAL_SERVER_ERROR.code(),
          new TransportException("WebSocket listener threw " + e + "; closed with 1011 (" + where + ")",
              handshake.request(), e));
    }
  }

  // ---- frames out ----

  private CompletableFuture<Void> send(java.util.function.Supplier<WebSocketFrame> frame) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    onLoop(() -> {
      if (closeSent || ended || !channel.isActive()) {
        done.completeExceptionally(new IllegalStateException("the WebSocket is "
            + (ended || !channel.isActive() ? "closed" : "closing") + " (" + where + ")"));
        return;
      }
      channel.writeAndFlush(frame.get()).addListener(f -> {
        if (f.isSuccess()) {
          done.complete(null);
        } else {
          done.completeExceptionally(new TransportException("cannot send on the WebSocket: " + f.cause() + " ("
              + where + ")", handshake.request(), f.cause()));
        }
      });
    });
    return done;
  }

  private void sendClose(int code, String reason) {
    closeSent = true;
    channel.writeAndFlush(new CloseWebSocketFrame(code, reason));
  }

  private void onLoop(Runnable task) {
    if (channel.eventLoop().inEventLoop()) {
      task.run();
      return;
    }
    try {
      channel.eventLoop().execute(task);
    } catch (RejectedExecutionException e) {
      task.run(); // the client is closed: the channel is too, and the task sees that
    }
  }
}
