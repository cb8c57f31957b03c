package dev.strand;

import java.util.concurrent.CompletableFuture;

/**
 * A WebSocket connection (RFC 6455), opened with {@link Client#websocket(String, Listener)} or its
 * async twin. Messages arrive at the {@link Listener}; this side sends with the methods below, from
 * any thread. The opening handshake is sent as any HTTP/1.1 request is, on a connection kept apart
 * from other requests' and through the client's proxy if it has one, always as a tunnel
 * ({@code CONNECT} or SOCKS5); once the server switched protocols the connection is the socket's
 * alone and leaves the pool. Closing the client aborts the sockets it opened.
 *
 * {@snippet :
 * WebSocket ws = client.websocket("ws://127.0.0.1:8080/ws/echo", new WebSocket.Listener() {
 *   @Override
 *   public void onText(WebSocket ws, String text) {
 *     System.out.println("got " + text);
 *   }
 * });
 * ws.sendText("hello");
 * ws.close(1000, "done").join();
 * }
 *
 * <p>Sending: each message goes out as one frame (compressed with permessage-deflate when the
 * server agreed to it). A send future completes once the frame has been written to the socket, and
 * fails if the connection is gone; messages are sent in the order of the calls. Sending after
 * {@link #close} or {@link #abort} fails with {@link IllegalStateException} in the future.
 *
 * @implNote Received messages are limited to {@link Client.Builder#webSocketMaxMessageSize} bytes
 *     (default 16 MiB) after decompression; a larger one closes the socket with status 1009 and
 *     reports a {@link ProtocolException}. A text message that is not valid UTF-8 closes it with 1007.
 */
public interface WebSocket {
  /** Sends a text message. */
  CompletableFuture<Void> sendText(String text);

  /** Sends a binary message. */
  CompletableFuture<Void> sendBinary(byte[] data);

  /** Sends a Ping with {@code payload} (at most 125 bytes); the peer answers with a Pong, see {@link Listener#onPong}. */
  CompletableFuture<Void> ping(byte[] payload);

  /**
   * Starts the closing handshake: sends a Close frame with {@code code} and {@code reason}. The
   * future completes once the peer's Close has arrived and the connection is closed, or after a
   * bounded wait (the request's read timeout, else 5 s), when the connection is dropped and
   * {@link Listener#onError} reports that the peer did not answer. Messages that arrive meanwhile
   * are still delivered. Calling it again, or after the socket ended, returns a completed future.
   *
   * @param code 1000 (normal), 1001 (going away) or 1003, 1007 to 1014, or an application code 3000 to 4999
   * @param reason at most 123 bytes of UTF-8 (may be empty)
   * @throws IllegalArgumentException for a code that may not be sent or a reason too long
   */
  CompletableFuture<Void> close(int code, String reason);

  /**
   * Drops the connection now, without a closing handshake. The listener's {@link Listener#onError}
   * reports it (unless the socket already ended); pending sends fail.
   */
  void abort();

  /** Whether messages can still be sent: the handshake finished and no Close was sent or received. */
  boolean isOpen();

  /** The subprotocol the server selected ({@code Sec-WebSocket-Protocol}), or {@code null} if none. */
  String subprotocol();

  /** The server's {@code 101 Switching Protocols} response and the handshake request it answered. */
  ResponseHead handshake();

  /**
   * Receives a WebSocket's events. Every method has a no-op default.
   *
   * <p>Callbacks run on the connection's I/O thread (a Netty event loop), one at a time and in the
   * order the frames arrived: do not block in them (hand long work to another thread). The next
   * frame is read from the network only after the callback returns, so a slow listener slows the
   * peer down instead of filling memory. Fragmented messages are reassembled before delivery.
   *
   * <p>A socket ends with exactly one of {@link #onClose} (a clean closing handshake) or
   * {@link #onError} (everything else), after which no callback follows. A listener that throws
   * ends the socket: it is closed with status 1011 and {@code onError} reports the exception.
   */
  interface Listener {
    /** The handshake completed; called before any message. */
    default void onOpen(WebSocket ws) {}

    /** A complete text message. */
    default void onText(WebSocket ws, String text) {}

    /** A complete binary message. */
    default void onBinary(WebSocket ws, byte[] data) {}

    /** A Ping arrived; the Pong is sent automatically. */
    default void onPing(WebSocket ws, byte[] payload) {}

    /** A Pong arrived (the answer to {@link WebSocket#ping}, or an unsolicited one). */
    default void onPong(WebSocket ws, byte[] payload) {}

    /**
     * The closing handshake completed (whoever started it); the connection is closed right after.
     *
     * @param code the status the peer sent, or 1005 if its Close frame had none
     * @param reason the peer's reason, or empty
     */
    default void onClose(WebSocket ws, int code, String reason) {}

    /**
     * The socket ended any other way: the connection dropped without a Close frame (status 1006),
     * a protocol error, a message over the size limit, {@link WebSocket#abort}, closing the client,
     * or an exception thrown by this listener. Called at most once, never together with onClose.
     */
    default void onError(WebSocket ws, HttpException error) {}
  }
}
