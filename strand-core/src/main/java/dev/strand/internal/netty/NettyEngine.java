package dev.strand.internal.netty;

import dev.strand.ClientStats;
import dev.strand.ConnectException;
import dev.strand.Limits;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.internal.pool.ConnectionPool;
import dev.strand.internal.pool.Connector;
import dev.strand.internal.pool.Origin;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/** HTTP/1.1 over Netty with a per-origin pool: the engine behind {@link dev.strand.NettyTransport}. */
public final class NettyEngine {
  final EventLoops loops;
  final ConnectionPool<Http1Connection> pool;
  private final long expiryNanos;
  private volatile boolean closed;

  public NettyEngine(Limits limits, int ioThreads, int maxHeaderSize, boolean preferNative) {
    this(limits, EventLoops.create(ioThreads, preferNative), engine -> new NettyConnector(engine, maxHeaderSize));
  }

  /** With another way to connect: tests put connections on an {@code EmbeddedChannel}. */
  NettyEngine(Limits limits, EventLoops loops, Function<NettyEngine, Connector<Http1Connection>> connector) {
    this.loops = loops;
    this.pool = new ConnectionPool<>(limits, connector.apply(this), System::nanoTime);
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
    if (origin.isHttps()) {
      return CompletableFuture.failedFuture(new ConnectException(
          "HTTPS not supported yet by this transport: cannot connect to " + origin.socketHost() + ":" + origin.port()
              + " (" + request + ")", request));
    }
    Exchange exchange = new Exchange(this, request, origin);
    if (pool.acquire(origin, exchange, false)) {
      exchange.armPoolTimer();
    }
    return exchange.future;
  }

  public ClientStats stats() {
    return new ClientStats(loops.name, "none", pool.connectionsOpened(), pool.stats());
  }

  public void close() {
    if (closed) {
      return;
    }
    closed = true;
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
}
