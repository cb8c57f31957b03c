package dev.strand;

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
 */
public interface Transport extends AutoCloseable {
  CompletableFuture<StreamingResponse> send(Request request);

  /** A snapshot of this transport's connections. */
  default ClientStats stats() {
    return ClientStats.EMPTY;
  }

  /** Closes every connection and releases threads. Requests in flight fail. */
  @Override
  void close();
}
