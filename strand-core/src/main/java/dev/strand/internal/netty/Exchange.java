package dev.strand.internal.netty;

import dev.strand.HttpException;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.StreamingResponse;
import dev.strand.Timeout;
import dev.strand.internal.events.CallEvents;
import dev.strand.internal.pool.Origin;
import dev.strand.internal.pool.Waiter;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One call of {@code send}: waits for a connection, then is carried by a {@link NettyConnection}.
 * Also the task that starts it on the connection's event loop, so the thread hop allocates nothing.
 */
final class Exchange extends Waiter<NettyConnection> implements Runnable {
  final NettyEngine engine;
  final Request request;
  final Origin origin;
  final ResponseFuture future = new ResponseFuture(this);
  /** The call's listener side, or {@code null} (no listener: every event site is one null check). */
  final CallEvents events;
  final boolean head;
  final long readTimeoutNanos;
  final long writeTimeoutNanos;
  private final long poolTimeoutNanos;
  /** 0 on the first try, 1 on the one retry after a stale connection failed. */
  int attempt;
  /** Resubmissions of a request the server never processed (HTTP/2 GOAWAY, refused stream). */
  private int unprocessedRetries;
  private volatile NettyConnection connection;
  private volatile ScheduledFuture<?> poolTimer;

  Exchange(NettyEngine engine, Request request, Origin origin) {
    this.engine = engine;
    this.request = request;
    this.origin = origin;
    this.head = request.method().equals("HEAD");
    Timeout t = request.timeout() != null ? request.timeout() : Timeout.DEFAULT;
    this.readTimeoutNanos = nanos(t.read());
    this.writeTimeoutNanos = nanos(t.write());
    this.poolTimeoutNanos = nanos(t.pool());
    this.events = CallEvents.of(request);
    if (events != null) {
      events.connectionAcquireStart();
    }
  }

  @Override
  protected void onConnection(NettyConnection c) {
    connection = c;
    if (events != null) {
      events.connectionAcquired(c.id, c.version(), c.isReused());
    }
    ScheduledFuture<?> timer = poolTimer;
    if (timer != null) {
      timer.cancel(false);
    }
    if (c.eventLoop().inEventLoop()) {
      c.begin(this);
    } else {
      c.eventLoop().execute(this);
    }
  }

  /** Runs {@link NettyConnection#begin} on the connection's event loop. */
  @Override
  public void run() {
    connection.begin(this);
  }

  @Override
  protected void onFailure(Throwable cause) {
    future.completeExceptionally(ErrorMapper.connect(cause, request, origin));
  }

  /** Called after the pool put this exchange in line behind a full pool. */
  void armPoolTimer() {
    if (poolTimeoutNanos > 0 && !future.isDone()) {
      poolTimer = engine.loops.group.next().schedule(() -> {
        if (engine.pool.cancel(origin, this)) {
          future.completeExceptionally(ErrorMapper.poolTimeout(request, poolTimeoutNanos, origin));
        }
      }, poolTimeoutNanos, TimeUnit.NANOSECONDS);
    }
  }

  /** Whether a failure before any response byte on a reused connection may be sent again. */
  boolean mayRetry() {
    if (attempt > 0 || future.isDone()) {
      return false;
    }
    RequestBody body = request.body();
    return isIdempotent(request.method()) && (body == null || body.isRepeatable());
  }

  /** Sends again on a new connection. */
  void retry() {
    attempt++;
    connection = null;
    if (engine.pool.acquire(origin, this, true)) {
      armPoolTimer();
    }
  }

  /**
   * Sends again on a new connection because the server provably did not process the request (an
   * HTTP/2 stream above a GOAWAY's last-stream-id, or refused): safe for any method. False when the
   * retries are used up or the body cannot be sent twice; the caller then fails the exchange.
   */
  boolean retryUnprocessed() {
    return retryUnprocessed(true);
  }

  /**
   * As {@link #retryUnprocessed()}; {@code fresh} false lets the pool hand back the same connection
   * (an HTTP/2 stream the server refused: the connection itself is fine, and may be the only one allowed).
   */
  boolean retryUnprocessed(boolean fresh) {
    RequestBody body = request.body();
    if (future.isDone() || unprocessedRetries >= 3 || (body != null && !body.isRepeatable())) {
      return false;
    }
    unprocessedRetries++;
    connection = null;
    if (engine.pool.acquire(origin, this, fresh)) {
      armPoolTimer();
    }
    return true;
  }

  void fail(HttpException e) {
    future.completeExceptionally(e);
  }

  /** Hands {@code r} to the caller; if the call was cancelled meanwhile, closing it drops what still arrives. */
  void deliver(StreamingResponse r) {
    if (events != null) {
      events.responseHeadersReceived(r);
    }
    if (!future.complete(r)) {
      r.close();
    }
  }

  /** The caller cancelled the future: leave the queue, or abort on the connection. */
  private void abort() {
    if (engine.pool.cancel(origin, this)) {
      ScheduledFuture<?> timer = poolTimer;
      if (timer != null) {
        timer.cancel(false);
      }
      return;
    }
    NettyConnection c = connection;
    if (c != null) {
      c.abort(this);
    }
    // Else the pool is handing it a connection right now; begin() sees the cancelled future.
  }

  static boolean isIdempotent(String method) {
    return switch (method) {
      case "GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE", "QUERY" -> true;
      default -> false;
    };
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
