package dev.strand;

import java.util.concurrent.CompletableFuture;

/**
 * The asynchronous face of a {@link Client}: the same shortcuts, returning futures that complete
 * with the fully read response or an {@link HttpException}. Obtain it with {@link Client#async()}.
 *
 * <p>Futures complete on the transport's I/O threads: keep continuations short, or use the
 * {@code *Async} variants of {@link CompletableFuture} to move blocking work elsewhere.
 */
public final class AsyncClient {
  private final Client client;

  AsyncClient(Client client) {
    this.client = client;
  }

  /** The async twin of {@link Client#send}: completes with the fully read response, or an {@link HttpException}. */
  public CompletableFuture<Response> send(Request request) {
    return client.sendAsync(request);
  }

  /**
   * The async twin of {@link Client#stream}: completes once the response head has arrived; the body
   * streams. Close the response.
   */
  public CompletableFuture<StreamingResponse> stream(Request request) {
    return client.streamAsync(request);
  }

  /** The async twin of {@link Client#events(String)}. */
  public CompletableFuture<EventStream> events(String url) {
    return events(Request.get(url));
  }

  /**
   * The async twin of {@link Client#events(Request)}: completes once the response head has arrived and
   * proved to be an event stream. Read the stream's events on a thread that may block, not in a
   * continuation of this future.
   */
  public CompletableFuture<EventStream> events(Request request) {
    return client.eventsAsync(request);
  }

  /** The async twin of {@link Client#events(Request, EventStream.Reconnect)}: completes once the first head has passed. */
  public CompletableFuture<EventStream> events(Request request, EventStream.Reconnect reconnect) {
    return client.eventsAsync(request, reconnect);
  }

  public CompletableFuture<Response> get(String url) {
    return send(Request.get(url));
  }

  public CompletableFuture<Response> head(String url) {
    return send(Client.shortcut("HEAD", url, null));
  }

  public CompletableFuture<Response> delete(String url) {
    return send(Client.shortcut("DELETE", url, null));
  }

  public CompletableFuture<Response> options(String url) {
    return send(Client.shortcut("OPTIONS", url, null));
  }

  public CompletableFuture<Response> post(String url, RequestBody body) {
    return send(Client.shortcut("POST", url, body));
  }

  public CompletableFuture<Response> put(String url, RequestBody body) {
    return send(Client.shortcut("PUT", url, body));
  }

  public CompletableFuture<Response> patch(String url, RequestBody body) {
    return send(Client.shortcut("PATCH", url, body));
  }

  public CompletableFuture<Response> query(String url, RequestBody body) {
    return send(Client.shortcut("QUERY", url, body));
  }

  /** The async twin of {@link Client#websocket(String, WebSocket.Listener)}; a bad URL fails the future. */
  public CompletableFuture<WebSocket> websocket(String url, WebSocket.Listener listener) {
    Request request;
    try {
      request = Client.webSocketRequest(url);
    } catch (InvalidUrlException e) {
      return CompletableFuture.failedFuture(e);
    }
    return websocket(request, listener);
  }

  /** The async twin of {@link Client#websocket(Request, WebSocket.Listener)}. */
  public CompletableFuture<WebSocket> websocket(Request request, WebSocket.Listener listener) {
    return client.websocketAsync(request, listener);
  }
}
