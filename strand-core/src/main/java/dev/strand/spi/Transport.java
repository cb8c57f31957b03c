package dev.strand.spi;

import dev.strand.ClientStats;
import dev.strand.HttpException;
import dev.strand.MockTransport;
import dev.strand.NettyTransport;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.WebSocket;
import dev.strand.WebSocketHandshakeException;
import java.util.concurrent.CompletableFuture;

/**
 * Sends one request and delivers its response head; the seam between the client's policy
 * (base URL, redirects, cookies, auth, hooks, decompression) and the wire. The default is
 * {@link NettyTransport}; {@link MockTransport} answers from a function, for tests without a network.
 *
 * <p>Contract: the client passes an absolute {@code http}/{@code https} URL and a non-null
 * {@link Request#timeout()}; the transport applies the timeouts, adds {@code Host},
 * {@code Content-Length} or chunked framing, and nothing else. It does not follow redirects or
 * decompress. If the returned future is cancelled before it completes, the transport aborts the
 * exchange and releases its connection. After it completes, the {@link StreamingResponse} owns the
 * connection until its body is read to the end or closed. Failures are {@link HttpException}s.
 *
 * <p>Users pick a transport ({@link dev.strand.Client.Builder#transport}) rather than implement one; a
 * transport builds its responses with {@link StreamingResponses} over a {@link ResponseBody} of its own.
 */
public interface Transport extends AutoCloseable {
  CompletableFuture<StreamingResponse> send(Request request);

  /**
   * Opens a WebSocket: sends {@code request} (an absolute {@code http}/{@code https} URL, for
   * {@code ws}/{@code wss}; GET, no body, its headers added to the handshake) as the opening
   * handshake on a connection of its own, and completes once the server has answered
   * {@code 101 Switching Protocols}, after {@link WebSocket.Listener#onOpen}. Another answer fails
   * with {@link WebSocketHandshakeException}; the request's timeouts bound the handshake as they
   * bound any request. Received messages larger than {@code maxMessageSize}
   * bytes end the socket with status 1009.
   *
   * <p>The default fails with {@link ProtocolException}: a transport supports WebSockets only if it says so.
   */
  default CompletableFuture<WebSocket> websocket(Request request, WebSocket.Listener listener, int maxMessageSize) {
    return CompletableFuture.failedFuture(new ProtocolException(
        "this transport does not support WebSockets (" + getClass().getName() + ")", request));
  }

  /** A snapshot of this transport's connections. */
  default ClientStats stats() {
    return ClientStats.EMPTY;
  }

  /** Closes every connection and releases threads. Requests in flight fail. */
  @Override
  void close();
}
