package dev.strand.internal.netty;

import dev.strand.ClientStats;
import dev.strand.Limits;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.Tls;
import dev.strand.Version;
import dev.strand.WebSocket;
import dev.strand.internal.pool.ConnectionPool;
import dev.strand.internal.pool.Connector;
import dev.strand.internal.pool.Origin;
import dev.strand.internal.proxy.ProxyRoutes;
import dev.strand.internal.proxy.ProxyServer;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/** HTTP/1.1 and HTTP/2 over Netty with a per-origin pool: the engine behind {@link dev.strand.NettyTransport}. */
public final class NettyEngine {
  final EventLoops loops;
  final ConnectionPool<NettyConnection> pool;
  final TlsSetup tls;
  final Version version;
  private final WebSocketConnector webSockets;
  private final ProxyRoutes proxy;
  /** Where every connection goes instead of the origin's address, or {@code null} for TCP. */
  final Path unixSocket;
  private final long expiryNanos;
  private volatile boolean closed;

  /**
   * @param tls the TLS settings, or {@code null} for {@link Tls#system()} built on first use
   * @param proxy which proxy each origin is reached through
   * @param unixSocket the Unix domain socket every connection goes to, or {@code null} for TCP
   * @throws IllegalArgumentException if {@code tls} names unusable files (its context is built here)
   */
  public NettyEngine(Limits limits, int ioThreads, int maxHeaderSize, boolean preferNative, Tls tls, Version version,
      ProxyRoutes proxy, Path unixSocket) {
    this(limits, new TlsSetup(tls, version), EventLoops.create(ioThreads, preferNative), version, proxy, unixSocket,
        (ConnectorFactory) engine -> new NettyConnector(engine, maxHeaderSize), maxHeaderSize);
  }

  /** With another way to connect: tests put HTTP/1.1 connections on an {@code EmbeddedChannel}. */
  @SuppressWarnings("unchecked")
  NettyEngine(Limits limits, EventLoops loops, Function<NettyEngine, Connector<Http1Connection>> connector) {
    // A connector of Http1Connections only ever hands the pool NettyConnections; waiters are Exchanges.
    this(limits, new TlsSetup(null, Version.HTTP_1_1), loops, Version.HTTP_1_1, ProxyRoutes.DIRECT, null,
        (ConnectorFactory) e -> (Connector<NettyConnection>) (Connector<?>) connector.apply(e), 64 * 1024);
  }

  // TLS first: a configuration error then fails before any thread is started.
  private NettyEngine(Limits limits, TlsSetup tls, EventLoops loops, Version version, ProxyRoutes proxy,
      Path unixSocket, ConnectorFactory connector, int maxHeaderSize) {
    this.loops = loops;
    this.proxy = proxy;
    this.unixSocket = unixSocket;
    this.webSockets = new WebSocketConnector(this, maxHeaderSize);
    this.tls = tls;
    this.version = version;
    this.pool = new ConnectionPool<>(limits, connector.create(this), System::nanoTime);
    this.expiryNanos = limits.keepAliveExpiry().toNanos();
    if (expiryNanos > 0) {
      scheduleSweep(expiryNanos);
    }
  }

  /** See {@link dev.strand.Transport#send}. */
  public CompletableFuture<StreamingResponse> send(Request request) {
    URI url = request.url();
    if (url.getScheme() == null || url.getHost() == null) {
      return CompletableFuture.failedFuture(
          new ProtocolException("the transport needs an absolute URL, got " + url, request));
    }
    Origin origin = Origin.of(url);
    Exchange exchange = new Exchange(this, request, origin);
    if (origin.isHttps() && !tls.ready()) {
      // The default context is built once, on first use, off the event loops (it reads the system CAs).
      tls.whenReady().whenComplete((ctx, error) -> {
        if (error != null) {
          exchange.fail(ErrorMapper.tlsSetup(error, request));
        } else {
          acquire(origin, exchange);
        }
      });
      return exchange.future;
    }
    acquire(origin, exchange);
    return exchange.future;
  }

  /** See {@link dev.strand.Transport#websocket}: a dedicated connection, outside the pool. */
  public CompletableFuture<WebSocket> websocket(Request request, WebSocket.Listener listener, int maxMessageSize) {
    if (closed) {
      return CompletableFuture.failedFuture(new dev.strand.TransportException("the client is closed", request));
    }
    return webSockets.open(request, listener, maxMessageSize);
  }

  boolean isClosed() {
    return closed;
  }

  private void acquire(Origin origin, Exchange exchange) {
    if (pool.acquire(origin, exchange, false)) {
      exchange.armPoolTimer();
    }
  }

  /**
   * The proxy to reach {@code origin} through, or {@code null} to connect directly. It depends on
   * the origin alone, so the pool's per-origin keying keeps each route's connections apart.
   */
  ProxyServer proxyFor(Origin origin) {
    return proxy.select(origin.scheme(), origin.host(), origin.port());
  }

  public ClientStats stats() {
    return new ClientStats(loops.name, tls.engineName(), pool.connectionsOpened(), pool.stats());
  }

  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    webSockets.closeAll();
    pool.close();
    loops.shutdown();
  }

  /** Closes expired idle connections, then sleeps until the next one expires. */
  private void scheduleSweep(long delayNanos) {
    if (closed) {
      return;
    }
    try {
      loops.group.next().schedule(() -> {
        long next = pool.closeExpired(System.nanoTime());
        scheduleSweep(next < 0 ? expiryNanos : Math.max(next, TimeUnit.MILLISECONDS.toNanos(10)));
      }, delayNanos, TimeUnit.NANOSECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // shutting down
    }
  }

  /** Makes the connector once the engine exists (it needs the engine's loops and pool). */
  @FunctionalInterface
  interface ConnectorFactory {
    Connector<NettyConnection> create(NettyEngine engine);
  }
}
