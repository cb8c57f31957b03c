package dev.strand.internal.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.ClientStats.OriginStats;
import dev.strand.Limits;
import dev.strand.TransportException;
import dev.strand.internal.pool.PoolFakes.FakeConnection;
import dev.strand.internal.pool.PoolFakes.FakeConnector;
import dev.strand.internal.pool.PoolFakes.FakeWaiter;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Pool decisions with a fake clock and fake connections: no sockets, no sleeps. */
class ConnectionPoolTest {
  static final Origin A = new Origin("http", "a.test", 80);
  static final Origin B = new Origin("http", "b.test", 80);
  static final long SECOND = 1_000_000_000L;

  final FakeConnector connector = new FakeConnector();
  long now = 1_000 * SECOND;

  ConnectionPool<FakeConnection> pool(Limits limits) {
    return new ConnectionPool<>(limits, connector, () -> now);
  }

  /** Acquires for a new waiter and, if that started a connect, completes it with a new connection. */
  FakeWaiter acquireConnecting(ConnectionPool<FakeConnection> pool, Origin origin, String name) {
    FakeWaiter w = new FakeWaiter(name);
    int before = connector.connects.size();
    pool.acquire(origin, w, false);
    assertEquals(before + 1, connector.connects.size(), name + " should have started a connect");
    pool.connected(origin, new FakeConnection("c-" + name));
    assertTrue(w.connection != null, name + " should hold the new connection");
    return w;
  }

  OriginStats stats(ConnectionPool<?> pool, Origin o) {
    return pool.stats().get(o.toString());
  }

  @Test
  void aConnectorThatThrowsFailsTheWaiterAndGivesItsCountersBack() {
    ConnectionPool<FakeConnection> pool = pool(Limits.ofConnections(1));
    connector.throwOnConnect = new IllegalArgumentException("port out of range:99999");
    FakeWaiter w = new FakeWaiter("w");
    pool.acquire(A, w, false);
    assertInstanceOf(IllegalArgumentException.class, w.failure);
    assertEquals(new OriginStats(0, 0, 0, 0), stats(pool, A));

    connector.throwOnConnect = null;
    FakeWaiter next = acquireConnecting(pool, B, "next");
    assertEquals(new OriginStats(1, 0, 1, 0), stats(pool, B), "the one slot is free again, for another origin");
    assertNull(next.failure);
  }

  @Test
  void idleConnectionsAreReusedMostRecentFirst() {
    ConnectionPool<FakeConnection> pool = pool(Limits.ofConnections(4));
    FakeWaiter w1 = acquireConnecting(pool, A, "w1");
    FakeWaiter w2 = acquireConnecting(pool, A, "w2");
    pool.release(w1.connection, true);
    now += SECOND;
    pool.release(w2.connection, true);
    assertEquals(new OriginStats(2, 2, 0, 0), stats(pool, A));

    FakeWaiter w3 = new FakeWaiter("w3");
    assertFalse(pool.acquire(A, w3, false));
    assertSame(w2.connection, w3.connection, "LIFO: the most recently released connection");
    FakeWaiter w4 = new FakeWaiter("w4");
    pool.acquire(A, w4, false);
    assertSame(w1.connection, w4.connection);
    assertEquals(2, connector.connects.size(), "no new connection while idle ones exist");
    assertEquals(new OriginStats(2, 0, 2, 0), stats(pool, A));
    assertTrue(w3.connection.isReused());
  }

  @Test
  void releasedConnectionGoesToWaitersInArrivalOrder() {
    ConnectionPool<FakeConnection> pool = pool(Limits.ofConnections(1));
    FakeWaiter w1 = acquireConnecting(pool, A, "w1");
    FakeWaiter w2 = new FakeWaiter("w2");
    FakeWaiter w3 = new FakeWaiter("w3");
    assertTrue(pool.acquire(A, w2, false), "waits behind a full pool");
    assertTrue(pool.acquire(A, w3, false));
    assertEquals(new OriginStats(1, 0, 1, 2), stats(pool, A));

    pool.release(w1.connection, true);
    assertSame(w1.connection, w2.connection);
    assertNull(w3.connection, "exactly one waiter per released connection");
    pool.release(w2.connection, true);
    assertSame(w1.connection, w3.connection);
    pool.release(w3.connection, true);
    assertEquals(new OriginStats(1, 1, 0, 0), stats(pool, A));
    assertEquals(1, connector.connects.size());
  }

  @Test
  void aCancelledWaiterIsSkipped() {
    ConnectionPool<FakeConnection> pool = pool(Limits.ofConnections(1));
    FakeWaiter w1 = acquireConnecting(pool, A, "w1");
    FakeWaiter w2 = new FakeWaiter("w2");
    FakeWaiter w3 = new FakeWaiter("w3");
    pool.acquire(A, w2, false);
    pool.acquire(A, w3, false);
    assertTrue(pool.cancel(A, w2));
    assertFalse(pool.cancel(A, w2), "cancelling twice is a no-op");
    assertEquals(1, stats(pool, A).pending(), "pending drops at once");

    pool.release(w1.connection, true);
    assertNull(w2.connection);
    assertSame(w1.connection, w3.connection);
    assertFalse(pool.cancel(A, w3), "a served waiter cannot be cancelled");
  }

  @Test
  void aDetachedConnectionStaysOpenAndFreesItsSlot() {
    ConnectionPool<FakeConnection> pool = pool(Limits.ofConnections(1));
    Origin upgrades = A.forUpgrade();
    FakeWaiter w1 = acquireConnecting(pool, upgrades, "w1");
    FakeWaiter w2 = new FakeWaiter("w2");
    pool.acquire(upgrades, w2, false);
    pool.detach(w1.connection);
    assertEquals(0, w1.connection.closes, "its new protocol's owner closes it");
    assertEquals(2, connector.connects.size(), "the freed slot opens a connection for w2");
    pool.release(w1.connection, true); // a late release of a detached connection changes nothing
    pool.closed(w1.connection);
    assertEquals(new OriginStats(1, 0, 0, 1), stats(pool, upgrades), "only w2's connect");
    assertEquals("ws://a.test:80", upgrades.toString());
    assertFalse(upgrades.equals(A), "upgrades are pooled apart");
  }

  @Test
  void notReusableConnectionIsClosedAndTheNextWaiterConnects() {
    ConnectionPool<FakeConnection> pool = pool(Limits.ofConnections(1));
    FakeWaiter w1 = acquireConnecting(pool, A, "w1");
    FakeWaiter w2 = new FakeWaiter("w2");
    pool.acquire(A, w2, false);
    pool.release(w1.connection, false);
    assertEquals(1, w1.connection.closes);
    assertEquals(2, connector.connects.size(), "the freed slot opens a connection for w2");
    pool.connected(A, new FakeConnection("c2"));
    assertEquals("c2", w2.connection.name);
    assertEquals(new OriginStats(1, 0, 1, 0), stats(pool, A));
    assertEquals(2, pool.connectionsOpened());
  }

  @Test
  void idleConnectionsExpire() {
    ConnectionPool<FakeConnection> pool = pool(Limits.ofConnections(4).withKeepAliveExpiry(Duration.ofSeconds(5)));
    FakeWaiter w1 = acquireConnecting(pool, A, "w1");
    FakeWaiter w2 = acquireConnecting(pool, A, "w2");
    pool.release(w1.connection, true); // idle since t
    now += 2 * SECOND;
    pool.release(w2.connection, true); // idle since t + 2 s

    assertEquals(5 * SECOND, pool.closeExpired(now - 2 * SECOND), "at t nothing expired, next in 5 s");
    assertEquals(3 * SECOND, pool.closeExpired(now), "the older one expires 3 s from now");
    assertEquals(2 * SECOND, pool.closeExpired(now + 3 * SECOND), "oldest closed, the other in 2 s");
    assertEquals(1, w1.connection.closes);
    assertEquals(0, w2.connection.closes);
    assertEquals(new OriginStats(1, 1, 0, 0), stats(pool, A));
    assertEquals(-1, pool.closeExpired(now + 5 * SECOND), "nothing left idle");
    assertEquals(1, w2.connection.closes);
    assertEquals(new OriginStats(0, 0, 0, 0), stats(pool, A));
  }

  @Test
  void anExpiredIdleConnectionIsNotHandedOut() {
    ConnectionPool<FakeConnection> pool = pool(Limits.ofConnections(4).withKeepAliveExpiry(Duration.ofSeconds(5)));
    FakeWaiter w1 = acquireConnecting(pool, A, "w1");
    pool.release(w1.connection, true);
    now += 5 * SECOND;
    FakeWaiter w2 = acquireConnecting(pool, A, "w2");
    assertNotSame(w1.connection, w2.connection);
    assertEquals(1, w1.connection.closes);
  }

  @Test
  void aConnectionClosedByThePeerIsNotHandedOut() {
    ConnectionPool<FakeConnection> pool = pool(Limits.ofConnections(4));
    FakeWaiter w1 = acquireConnecting(pool, A, "w1");
    pool.release(w1.connection, true);
    w1.connection.open = false; // FIN not yet processed
    FakeWaiter w2 = acquireConnecting(pool, A, "w2");
    assertNotSame(w1.connection, w2.connection);
    assertEquals(new OriginStats(1, 0, 1, 0), stats(pool, A));
  }

  @Test
  void peerCloseOfAnIdleConnectionRemovesIt() {
    ConnectionPool<FakeConnection> pool = pool(Limits.ofConnections(4));
    FakeWaiter w1 = acquireConnecting(pool, A, "w1");
    FakeWaiter w2 = acquireConnecting(pool, A, "w2");
    pool.release(w1.connection, true);
    pool.closed(w1.connection);
    pool.closed(w1.connection);
    pool.closed(w2.connection); // in use: its holder releases it
    assertEquals(new OriginStats(1, 0, 1, 0), stats(pool, A));
    pool.release(w2.connection, false);
    assertEquals(new OriginStats(0, 0, 0, 0), stats(pool, A));
  }

  @Test
  void keepAliveBudgetClosesExtraIdleConnections() {
    ConnectionPool<FakeConnection> pool = pool(Limits.builder().maxConnections(4).maxKeepAliveConnections(1).keepAliveExpiry(Duration.ofSeconds(5)).build());
    FakeWaiter w1 = acquireConnecting(pool, A, "w1");
    FakeWaiter w2 = acquireConnecting(pool, B, "w2");
    pool.release(w1.connection, true);
    pool.release(w2.connection, true);
    assertEquals(0, w1.connection.closes);
    assertEquals(1, w2.connection.closes, "only one idle connection may be kept, across origins");
    assertEquals(new OriginStats(1, 1, 0, 0), stats(pool, A));
    assertEquals(new OriginStats(0, 0, 0, 0), stats(pool, B));
  }

  @Test
  void perHostCapMakesWaitersWhileOtherOriginsStillConnect() {
    ConnectionPool<FakeConnection> pool = pool(Limits.builder().maxConnections(3).maxKeepAliveConnections(3).keepAliveExpiry(Duration.ofSeconds(5))
        .maxConnectionsPerHost(1).build());
    acquireConnecting(pool, A, "w1");
    FakeWaiter w2 = new FakeWaiter("w2");
    assertTrue(pool.acquire(A, w2, false));
    assertEquals(1, connector.connects.size());
    acquireConnecting(pool, B, "w3");
    assertEquals(new OriginStats(1, 0, 1, 1), stats(pool, A));
  }

  @Test
  void globalCapClosesAnIdleConnectionOfAnotherOrigin() {
    ConnectionPool<FakeConnection> pool = pool(Limits.ofConnections(1));
    FakeWaiter w1 = acquireConnecting(pool, A, "w1");
    pool.release(w1.connection, true);
    FakeWaiter w2 = acquireConnecting(pool, B, "w2");
    assertEquals(1, w1.connection.closes, "A's idle connection made room for B");
    assertEquals(new OriginStats(0, 0, 0, 0), stats(pool, A));
    assertEquals(new OriginStats(1, 0, 1, 0), stats(pool, B));
    assertEquals("c-w2", w2.connection.name);
  }

  @Test
  void globalCapHandsAFreedSlotToAnotherOrigin() {
    ConnectionPool<FakeConnection> pool = pool(Limits.ofConnections(1));
    FakeWaiter w1 = acquireConnecting(pool, A, "w1");
    FakeWaiter w2 = new FakeWaiter("w2");
    assertTrue(pool.acquire(B, w2, false), "B waits: A holds the only slot, in use");
    pool.release(w1.connection, false);
    assertEquals(2, connector.connects.size());
    assertEquals(B, connector.connects.get(1));
    pool.connected(B, new FakeConnection("cb"));
    assertEquals("cb", w2.connection.name);
  }

  @Test
  void connectFailureGoesToTheFirstWaiterAndTheNextOneTriesAgain() {
    ConnectionPool<FakeConnection> pool = pool(Limits.ofConnections(1));
    FakeWaiter w1 = new FakeWaiter("w1");
    FakeWaiter w2 = new FakeWaiter("w2");
    pool.acquire(A, w1, false);
    pool.acquire(A, w2, false);
    assertEquals(1, connector.connects.size());
    IOException refused = new IOException("refused");
    pool.connectFailed(A, refused);
    assertSame(refused, w1.failure);
    assertEquals(2, connector.connects.size(), "w2 gets its own attempt");
    pool.connectFailed(A, refused);
    assertSame(refused, w2.failure);
    assertEquals(new OriginStats(0, 0, 0, 0), stats(pool, A));
  }

  @Test
  void aConnectionNobodyWaitsForAnyMoreIdles() {
    ConnectionPool<FakeConnection> pool = pool(Limits.ofConnections(2));
    FakeWaiter w1 = new FakeWaiter("w1");
    pool.acquire(A, w1, false);
    assertTrue(pool.cancel(A, w1));
    FakeConnection c = new FakeConnection("c");
    pool.connected(A, c);
    assertNull(w1.connection);
    assertEquals(new OriginStats(1, 1, 0, 0), stats(pool, A));
  }

  @Test
  void freshAcquireSkipsIdleConnections() {
    ConnectionPool<FakeConnection> pool = pool(Limits.ofConnections(2));
    FakeWaiter w1 = acquireConnecting(pool, A, "w1");
    pool.release(w1.connection, true);
    FakeWaiter retry = new FakeWaiter("retry");
    pool.acquire(A, retry, true);
    assertNull(retry.connection);
    assertEquals(2, connector.connects.size());
  }

  @Test
  void aConnectionWithCapacityServesSeveralWaiters() {
    ConnectionPool<FakeConnection> pool = pool(Limits.ofConnections(1));
    FakeWaiter w1 = new FakeWaiter("w1");
    FakeWaiter w2 = new FakeWaiter("w2");
    pool.acquire(A, w1, false);
    pool.acquire(A, w2, false);
    FakeConnection h2 = new FakeConnection("h2", 2);
    pool.connected(A, h2);
    assertSame(h2, w1.connection);
    assertSame(h2, w2.connection);
    pool.release(h2, true);
    FakeWaiter w3 = new FakeWaiter("w3");
    pool.acquire(A, w3, false);
    assertSame(h2, w3.connection, "a free stream on a busy connection is used");
    pool.release(h2, true);
    pool.release(h2, true);
    assertEquals(new OriginStats(1, 1, 0, 0), stats(pool, A));
  }

  @Test
  void closeFailsWaitersAndClosesIdleConnections() {
    ConnectionPool<FakeConnection> pool = pool(Limits.ofConnections(1));
    FakeWaiter w1 = acquireConnecting(pool, A, "w1");
    FakeWaiter w2 = new FakeWaiter("w2");
    pool.acquire(A, w2, false);
    pool.close();
    assertInstanceOf(TransportException.class, w2.failure);
    pool.release(w1.connection, true);
    assertEquals(1, w1.connection.closes, "released after close: closed, not kept");
    FakeWaiter w3 = new FakeWaiter("w3");
    pool.acquire(A, w3, false);
    assertInstanceOf(TransportException.class, w3.failure);
    assertEquals(new OriginStats(0, 0, 0, 0), stats(pool, A));
  }

  @Test
  void manyCancelledWaitersDoNotAccumulate() {
    ConnectionPool<FakeConnection> pool = pool(Limits.ofConnections(1));
    FakeWaiter holder = acquireConnecting(pool, A, "holder");
    for (int i = 0; i < 10_000; i++) {
      FakeWaiter w = new FakeWaiter("w" + i);
      pool.acquire(A, w, false);
      pool.cancel(A, w);
    }
    FakeWaiter last = new FakeWaiter("last");
    pool.acquire(A, last, false);
    assertEquals(1, stats(pool, A).pending());
    pool.release(holder.connection, true);
    assertSame(holder.connection, last.connection);
  }
}
