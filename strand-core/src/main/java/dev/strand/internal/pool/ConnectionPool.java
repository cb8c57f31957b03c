package dev.strand.internal.pool;

import dev.strand.ClientStats;
import dev.strand.Limits;
import dev.strand.TransportException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Connections per {@link Origin}, within the global {@link Limits}. Each origin has its own
 * {@link OriginPool} and lock; the global counts are atomics, so origins never wait for each other.
 * Time comes from the given clock, so tests drive expiry with explicit timestamps.
 *
 * <p>Contract with the holder of a connection: every {@link Waiter#onConnection} is paired with
 * exactly one {@link #release}; a peer close seen while the connection is idle is reported with
 * {@link #closed}.
 */
public final class ConnectionPool<C extends PooledConnection> {
  private final Limits limits;
  private final Connector<C> connector;
  private final LongSupplier clock;
  private final long expiryNanos;
  private final ConcurrentHashMap<Origin, OriginPool<C>> origins = new ConcurrentHashMap<>();
  private final AtomicInteger totalOpen = new AtomicInteger();
  private final AtomicInteger totalIdle = new AtomicInteger();
  private final AtomicLong opened = new AtomicLong();
  /** Connects started and not yet ended, over all origins. */
  final AtomicInteger connecting = new AtomicInteger();
  private volatile boolean closed;

  public ConnectionPool(Limits limits, Connector<C> connector, LongSupplier nanoClock) {
    this.limits = limits;
    this.connector = connector;
    this.clock = nanoClock;
    this.expiryNanos = limits.keepAliveExpiry().toNanos();
  }

  /**
   * Asks for a connection to {@code origin}; {@code waiter} is called back when it has one.
   *
   * @param fresh do not reuse an idle connection (retrying after a stale one failed)
   * @return true if the waiter is now waiting behind a full pool (the caller arms its pool timeout)
   */
  public boolean acquire(Origin origin, Waiter<C> waiter, boolean fresh) {
    OriginPool<C> pool = origins.get(origin);
    if (pool == null) {
      pool = origins.computeIfAbsent(origin, o -> new OriginPool<>(o, this));
    }
    return pool.acquire(waiter, fresh, clock.getAsLong()) == OriginPool.Acquire.WAITING;
  }

  /** The connections to {@code origin} that can take an exchange now; empty if it has none. */
  public java.util.List<C> liveConnections(Origin origin) {
    OriginPool<C> pool = origins.get(origin);
    return pool == null ? java.util.List.of() : pool.live();
  }

  /** Whether the pool has seen an origin other than {@code origin}. Cheap: no copy. */
  public boolean hasOriginsBesides(Origin origin) {
    int n = origins.size();
    return n > 1 || n == 1 && !origins.containsKey(origin);
  }

  /** Every origin the pool has seen. */
  public java.util.Set<Origin> origins() {
    return java.util.Set.copyOf(origins.keySet());
  }

  /** Gives back the exchange slot of {@code c}; {@code reusable} false closes it. */
  public void release(C c, boolean reusable) {
    pool(c).release(c, reusable, clock.getAsLong());
  }

  /**
   * Takes {@code c}, whose exchange switched it to another protocol, out of the pool without closing it:
   * its slot is given back, and the pool forgets it (the new protocol's owner closes it).
   */
  public void detach(C c) {
    pool(c).detach(c);
  }

  /** The connector's success: {@code c} is open and goes to the first waiter of {@code origin}. */
  public void connected(Origin origin, C c) {
    opened.incrementAndGet();
    origins.get(origin).connected(c, clock.getAsLong());
  }

  /** The connector's failure: the first waiter of {@code origin} gets {@code cause}. */
  public void connectFailed(Origin origin, Throwable cause) {
    origins.get(origin).connectFailed(cause);
  }

  /** The peer closed {@code c}; if it was idle it leaves the pool now. */
  public void closed(C c) {
    OriginPool<?> p = c.pool;
    if (p != null) {
      pool(c).closed(c);
    }
  }

  /** Takes {@code waiter} out of line. False if it was not waiting (already served or failed). */
  public boolean cancel(Origin origin, Waiter<C> waiter) {
    OriginPool<C> pool = origins.get(origin);
    return pool != null && pool.cancel(waiter);
  }

  /**
   * Closes idle connections past {@link Limits#keepAliveExpiry()}.
   *
   * @return nanoseconds until the next idle connection expires, or {@code -1} if none is idle
   */
  public long closeExpired(long now) {
    long next = -1;
    for (OriginPool<C> p : origins.values()) {
      long n = p.closeExpired(now);
      if (n >= 0 && (next < 0 || n < next)) {
        next = n;
      }
    }
    return next;
  }

  /** Counts per origin, keyed {@code "scheme://host:port"}. */
  public Map<String, ClientStats.OriginStats> stats() {
    Map<String, ClientStats.OriginStats> out = new LinkedHashMap<>();
    origins.forEach((o, p) -> out.put(o.toString(), p.stats()));
    return out;
  }

  /** Whether a connection is being opened (dialled, TLS, the protocol settled) for any origin. */
  public boolean isConnecting() {
    return connecting.get() > 0;
  }

  /** Connections opened since the pool was created. */
  public long connectionsOpened() {
    return opened.get();
  }

  /** Closes idle connections and fails waiters; connections in use close with their exchanges. */
  public void close() {
    closed = true;
    TransportException cause = closedException();
    for (OriginPool<C> p : origins.values()) {
      p.shutdown(cause);
    }
  }

  // ---- for OriginPool ----

  boolean isClosed() {
    return closed;
  }

  TransportException closedException() {
    return new TransportException("the transport is closed", null);
  }

  Connector<C> connector() {
    return connector;
  }

  int maxPerHost() {
    return limits.maxConnectionsPerHost();
  }

  boolean isExpired(PooledConnection c, long now) {
    return now - c.idleSince >= expiryNanos;
  }

  long expiresAt(PooledConnection c) {
    return c.idleSince + expiryNanos;
  }

  /** Whether one more idle connection fits the keep-alive budget. */
  boolean keepIdle() {
    return expiryNanos > 0 && totalIdle.get() < limits.maxKeepAliveConnections();
  }

  void idleChanged(int delta) {
    totalIdle.addAndGet(delta);
  }

  /** Takes one of the {@link Limits#maxConnections()} slots, if one is free. */
  boolean reserveSlot() {
    int n;
    do {
      n = totalOpen.get();
      if (n >= limits.maxConnections()) {
        return false;
      }
    } while (!totalOpen.compareAndSet(n, n + 1));
    return true;
  }

  void freeSlot() {
    totalOpen.decrementAndGet();
  }

  /**
   * A global slot came free in {@code from}: its own waiters come first, then any other origin's.
   * The scan over origins happens only on close paths, never per request.
   */
  void slotFreed(OriginPool<C> from) {
    if (from.tryConnectForWaiter() || origins.size() == 1) {
      return;
    }
    for (OriginPool<C> p : origins.values()) {
      if (p != from && p.wantsSlot() && p.tryConnectForWaiter()) {
        return;
      }
    }
  }

  /**
   * {@code needy} has a waiter blocked only by the global cap: close the oldest idle connection of
   * another origin and let {@code needy} connect in its place.
   */
  void makeRoomFor(OriginPool<C> needy) {
    for (OriginPool<C> p : origins.values()) {
      if (p != needy && p.evictOldestIdle()) {
        needy.tryConnectForWaiter();
        return;
      }
    }
  }

  @SuppressWarnings("unchecked")
  private OriginPool<C> pool(C c) {
    return (OriginPool<C>) c.pool;
  }
}
