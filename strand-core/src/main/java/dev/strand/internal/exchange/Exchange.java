package dev.strand.internal.exchange;

import dev.strand.HttpException;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.Timeout;
import dev.strand.internal.events.CallEvents;
import dev.strand.internal.loop.CallerDrivenLoop;
import dev.strand.internal.pool.ConnectionPool;
import dev.strand.internal.pool.Origin;
import dev.strand.internal.pool.Waiter;
import dev.strand.internal.retry.RetryRules;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One call of {@code send}: waits for a connection, then is carried by a {@link NettyConnection}.
 * Also the task that starts it on the connection's event loop, so the thread hop allocates nothing.
 *
 * <p>An exchange sent over HTTP/3 waits in line under the QUIC key ({@link Origin#http3}); when it
 * may fall back ({@link dev.strand.VersionPolicy#HTTP_3_FIRST}, {@link dev.strand.VersionPolicy#HTTP_3_ALT_SVC}), a
 * failed QUIC connection or one slower than the head start sends it to the origin's TCP connections instead, without the caller noticing.
 */
public final class Exchange extends Waiter<NettyConnection> implements Runnable {
  /** How long a request that may fall back waits for a QUIC connection before it takes TCP. */
  public static final long HTTP3_HEAD_START_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

  /** What an exchange needs of the engine that sends it: the pool it waits in, threads for its timers, a word on each response. */
  public interface Dispatch {
    ConnectionPool<NettyConnection> pool();

    EventLoopGroup timers();

    /** A response head arrived from {@code origin} (for what it says of the origin, such as {@code Alt-Svc}). */
    void responded(Origin origin, StreamingResponse r);
  }

  /** Takes over the connection of a request that asks to switch protocols (a WebSocket handshake). */
  public interface Upgrade {
    /**
     * The server answered 101 (on the connection's event loop): checks the answer and adds the new
     * protocol's handlers at the end of {@code channel}'s pipeline. Then the connection leaves the pool,
     * the caller gets {@code response} (still on the event loop), and HTTP/1.1's decoder leaves the
     * pipeline last, in a task of its own, handing the new handlers the bytes that followed the head.
     *
     * @throws HttpException if the answer does not complete the switch: the exchange fails with it,
     *     and the connection is closed
     */
    void switched(Channel channel, StreamingResponse response);
  }

  final Dispatch engine;
  public final Request request;
  final Origin origin;
  public final CompletableFuture<StreamingResponse> future = new ResponseFuture(this);
  /** The call's listener side, or {@code null} (no listener: every event site is one null check). */
  public final CallEvents events;
  public final boolean head;
  /** What takes the connection over on a 101, or {@code null} for a request that does not switch protocols. */
  final Upgrade upgrade;
  /** The request's timeouts, or the defaults; read as each phase begins (one field, not three per call in flight). */
  private final Timeout timeout;
  /** 0 on the first try, then the resends after a stale connection failed. */
  int attempt;
  /** Resends of a request the server never processed (HTTP/2 GOAWAY, refused stream). */
  private int unprocessedRetries;
  private volatile NettyConnection connection;
  private volatile ScheduledFuture<?> poolTimer;
  /** The key it waits under: {@link #origin}, or the QUIC endpoint for HTTP/3. */
  private volatile Origin poolOrigin;
  /** Whether {@link #poolOrigin} is another origin whose HTTP/2 connection this request shares. */
  private volatile boolean coalesced;
  /** Waiting for a QUIC connection, with TCP to fall back on. */
  private volatile boolean mayFallBack;
  private volatile ScheduledFuture<?> headStart;

  public Exchange(Dispatch engine, Request request, Origin origin) {
    this(engine, request, origin, null);
  }

  /** @param upgrade what takes the connection over if the server switches protocols, or {@code null} */
  public Exchange(Dispatch engine, Request request, Origin origin, Upgrade upgrade) {
    this.engine = engine;
    this.upgrade = upgrade;
    this.request = request;
    this.origin = origin;
    this.head = request.method().equals("HEAD");
    this.timeout = request.timeout() != null ? request.timeout() : Timeout.DEFAULT;
    this.events = CallEvents.of(request);
    if (events != null) {
      events.connectionAcquireStart();
    }
    this.poolOrigin = origin;
  }

  public Request request() {
    return request;
  }

  /** The origin of the request (for HTTP/3, not the QUIC key its connection is pooled under). */
  public Origin origin() {
    return origin;
  }

  public boolean isHead() {
    return head;
  }

  /** Whether the request asks to switch protocols, with an {@link Upgrade} to take the connection over. */
  public boolean isUpgrade() {
    return upgrade != null;
  }

  /** Whether the caller has its response or failure already (or cancelled). */
  public boolean isDone() {
    return future.isDone();
  }

  /**
   * Waits for an HTTP/3 connection to {@code quic}; with {@code fallBack}, takes TCP instead if none
   * comes up within {@link #HTTP3_HEAD_START_NANOS} (or the connect timeout, if shorter).
   */
  public void acquireHttp3(Origin quic, boolean fallBack) {
    poolOrigin = quic;
    mayFallBack = fallBack;
    if (engine.pool().acquire(quic, this, false)) {
      armPoolTimer();
    }
    if (fallBack && connection == null && !future.isDone()) {
      long wait = timeout.connect() == null ? HTTP3_HEAD_START_NANOS
          : Math.min(HTTP3_HEAD_START_NANOS, timeout.connect().toNanos());
      headStart = engine.timers().next().schedule(() -> {
        if (mayFallBack && engine.pool().cancel(quic, this)) {
          fallBack();
        }
      }, wait, TimeUnit.NANOSECONDS);
    }
  }

  /**
   * Waits for a connection of {@code other}, an origin whose HTTP/2 connection may carry this request too
   * (connection coalescing, RFC 9113 9.1.1); the request keeps its own origin for {@code :authority}.
   */
  public void acquireShared(Origin other) {
    poolOrigin = other;
    coalesced = true;
    if (engine.pool().acquire(other, this, false)) {
      armPoolTimer();
    }
  }

  /** Whether the request went on another origin's connection ({@link #acquireShared}). */
  public boolean isCoalesced() {
    return coalesced;
  }

  /** Leaves HTTP/3 for the origin's TCP connections. */
  private void fallBack() {
    mayFallBack = false;
    cancelTimers();
    poolOrigin = origin;
    if (engine.pool().acquire(origin, this, false)) {
      armPoolTimer();
    }
  }

  private void cancelTimers() {
    ScheduledFuture<?> timer = poolTimer;
    if (timer != null) {
      timer.cancel(false);
    }
    ScheduledFuture<?> start = headStart;
    if (start != null) {
      start.cancel(false);
    }
  }

  @Override
  protected void onConnection(NettyConnection c) {
    connection = c;
    mayFallBack = false;
    cancelTimers();
    if (events != null) {
      events.connectionAcquired(c.id, c.version(), c.isReused());
    }
    if (c.eventLoop().inEventLoop()) {
      c.begin(this);
    } else {
      CallerDrivenLoop.start(c.eventLoop(), this, c.capacity() == 1);
    }
  }

  /** Runs {@link NettyConnection#begin} on the connection's event loop. */
  @Override
  public void run() {
    connection.begin(this);
  }

  @Override
  protected void onFailure(Throwable cause) {
    if (mayFallBack && poolOrigin.isHttp3() && !future.isDone()) {
      fallBack(); // QUIC failed (the engine marked it broken); the caller never hears of it
      return;
    }
    future.completeExceptionally(ErrorMapper.connect(cause, request, origin));
  }

  /**
   * Called after the pool put this exchange in line behind a full pool. A connection released meanwhile may
   * already have been handed to it, on another thread: then the timer is not armed, or cancelled as soon as
   * armed ({@link #onConnection} sets the connection before it looks for a timer to cancel), rather than left
   * in the event loop's queue for the whole pool timeout.
   */
  public void armPoolTimer() {
    long poolTimeoutNanos = nanos(timeout.pool());
    if (poolTimeoutNanos > 0 && !future.isDone() && connection == null) {
      Origin key = poolOrigin;
      ScheduledFuture<?> timer = engine.timers().next().schedule(() -> {
        if (poolOrigin == key && engine.pool().cancel(key, this)) {
          future.completeExceptionally(ErrorMapper.poolTimeout(request, poolTimeoutNanos, origin));
        }
      }, poolTimeoutNanos, TimeUnit.NANOSECONDS);
      poolTimer = timer;
      if (connection != null) {
        timer.cancel(false);
      }
    }
  }

  /** Whether a failure before any response byte on a reused connection may be sent again. */
  boolean mayRetry() {
    return !future.isDone() && RetryRules.afterStaleConnection(request, attempt);
  }

  /** Sends again on a new connection. */
  void retry() {
    attempt++;
    connection = null;
    if (engine.pool().acquire(poolOrigin, this, true)) {
      armPoolTimer();
    }
  }

  /**
   * Sends again on a new connection because the server provably did not process the request (an
   * HTTP/2 stream above a GOAWAY's last-stream-id, or refused): safe for any method. False when the
   * retries are used up or the body cannot be sent twice; the caller then fails the exchange.
   */
  public boolean retryUnprocessed() {
    return retryUnprocessed(true);
  }

  /**
   * As {@link #retryUnprocessed()}; {@code fresh} false lets the pool hand back the same connection
   * (an HTTP/2 stream the server refused: the connection itself is fine, and may be the only one allowed).
   */
  public boolean retryUnprocessed(boolean fresh) {
    if (future.isDone() || !RetryRules.afterUnprocessed(request, unprocessedRetries)) {
      return false;
    }
    unprocessedRetries++;
    connection = null;
    if (engine.pool().acquire(poolOrigin, this, fresh)) {
      armPoolTimer();
    }
    return true;
  }

  public void fail(HttpException e) {
    future.completeExceptionally(e);
  }

  /** Hands {@code r} to the caller; if the call was cancelled meanwhile, closing it drops what still arrives. */
  public void deliver(StreamingResponse r) {
    engine.responded(origin, r);
    if (events != null) {
      events.responseHeadersReceived(r);
    }
    if (!future.complete(r)) {
      r.close();
    }
  }

  /** The caller cancelled the future: leave the queue, or abort on the connection. */
  private void abort() {
    mayFallBack = false;
    if (engine.pool().cancel(poolOrigin, this)) {
      cancelTimers();
      return;
    }
    NettyConnection c = connection;
    if (c != null) {
      c.abort(this);
    }
    // Else the pool is handing it a connection right now; begin() sees the cancelled future.
  }

  /** The read timeout in nanoseconds, 0 for none. */
  long readTimeoutNanos() {
    return nanos(timeout.read());
  }

  /** The write timeout in nanoseconds, 0 for none. */
  long writeTimeoutNanos() {
    return nanos(timeout.write());
  }

  private static long nanos(Duration d) {
    return d == null ? 0 : Math.max(1, d.toNanos());
  }

  /** The future {@code send} returns; cancelling it aborts the exchange. */
  static final class ResponseFuture extends CompletableFuture<StreamingResponse> {
    private final Exchange exchange;

    ResponseFuture(Exchange exchange) {
      this.exchange = exchange;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      boolean cancelled = super.cancel(mayInterruptIfRunning);
      if (cancelled && exchange != null) {
        exchange.abort();
      }
      return cancelled;
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
      return new CompletableFuture<>();
    }
  }
}
