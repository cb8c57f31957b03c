package dev.strand.internal.client;

import dev.strand.Request;
import dev.strand.Response;
import dev.strand.ResponseHead;
import dev.strand.StreamingResponse;
import dev.strand.TransportException;
import dev.strand.WebSocket;
import dev.strand.spi.Transport;
import java.util.concurrent.CompletableFuture;

/**
 * The last link of a WebSocket handshake: has the transport open the socket, and hands the 101
 * response back up the chain (cookies are stored from it, response hooks see it). One per socket.
 */
final class WebSocketLink implements Link {
  private final Transport transport;
  private final WebSocket.Listener listener;
  private final int maxMessageSize;
  private volatile WebSocket opened;

  WebSocketLink(Transport transport, WebSocket.Listener listener, int maxMessageSize) {
    this.transport = transport;
    this.listener = listener;
    this.maxMessageSize = maxMessageSize;
  }

  /** The socket once the transport opened it, else {@code null}. */
  WebSocket opened() {
    return opened;
  }

  @Override
  public CompletableFuture<StreamingResponse> proceed(Call call, Request request) {
    CompletableFuture<WebSocket> future;
    try {
      future = transport.websocket(request, listener, maxMessageSize);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    if (future == null) {
      return CompletableFuture.failedFuture(new TransportException(
          "transport " + transport.getClass().getName() + " returned no future for " + request, request));
    }
    call.inFlight(future);
    return future.thenApply(ws -> {
      opened = ws;
      ResponseHead head = ws.handshake();
      return head instanceof StreamingResponse s ? s : StreamingResponse.of((Response) head);
    });
  }
}
