package dev.strand.internal.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.strand.ClientStats.OriginStats;
import dev.strand.Limits;
import dev.strand.internal.pool.PoolFakes.FakeConnection;
import dev.strand.internal.pool.PoolFakes.FakeConnector;
import dev.strand.internal.pool.PoolFakes.FakeWaiter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pool with connections that carry several exchanges at once (HTTP/2): fake clock, fake connections. */
class MultiplexedPoolTest {
  static final Origin A = new Origin("https", "a.test", 443);
  long now = 1_000_000_000_000L;

  /** A connector that announces HTTP/2-like connections of {@code expected} streams. */
  static final class H2Connector implements Connector<FakeConnection> {
    final List<Origin> connects = new ArrayList<>();
    final int expected;

    H2Connector(int expected) {
      this.expected = expected;
    }

    @Override
    public void connect(Origin origin, Waiter<FakeConnection> forWaiter) {
      connects.add(origin);
    }

    @Override
    public int expectedCapacity(Origin origin) {
      return expected;
    }
  }

  private static List<FakeWaiter> acquire(ConnectionPool<FakeConnection> pool, int n, String prefix) {
    List<FakeWaiter> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      FakeWaiter w = new FakeWaiter(prefix + i);
      pool.acquire(A, w, false);
      out.add(w);
    }
    return out;
  }

  @Test
  void aConnectionOfCapacityThreeCarriesThreeExchangesThenAnotherOpens() {
    FakeConnector connector = new FakeConnector();
    ConnectionPool<FakeConnection> pool = new ConnectionPool<>(Limits.ofConnections(4), connector, () -> now);
    FakeWaiter first = acquire(pool, 1, "w").get(0);
    FakeConnection c = new FakeConnection("h2", 3);
    pool.connected(A, c);
    assertSame(c, first.connection);

    List<FakeWaiter> more = acquire(pool, 2, "more");
    assertSame(c, more.get(0).connection, "spare capacity is used before anything new is opened");
    assertSame(c, more.get(1).connection);
    assertEquals(1, connector.connects.size());
    assertEquals(new OriginStats(1, 0, 1, 0), pool.stats().get(A.toString()));

    FakeWaiter fourth = acquire(pool, 1, "fourth").get(0);
    assertNull(fourth.connection, "a full connection takes no fourth exchange");
    assertEquals(2, connector.connects.size(), "a full connection makes the pool open another");

    pool.release(c, true);
    assertSame(c, fourth.connection, "a freed stream goes to the waiter at once");
    for (int i = 0; i < 3; i++) {
      pool.release(c, true);
    }
    assertEquals(1, pool.stats().get(A.toString()).idle());
  }

  @Test
  void aBurstWaitsForOneMultiplexedConnection() {
    H2Connector connector = new H2Connector(100);
    ConnectionPool<FakeConnection> pool = new ConnectionPool<>(Limits.ofConnections(10), connector, () -> now);
    List<FakeWaiter> burst = acquire(pool, 50, "w");
    assertEquals(1, connector.connects.size(), "50 requests to an HTTP/2 origin open one connection");
    FakeConnection c = new FakeConnection("h2", 100);
    pool.connected(A, c);
    for (FakeWaiter w : burst) {
      assertSame(c, w.connection);
    }
  }

  @Test
  void aBurstBeyondTheGuessOpensOneConnectionThenWhatTheServerAllows() {
    H2Connector connector = new H2Connector(100);
    ConnectionPool<FakeConnection> pool = new ConnectionPool<>(Limits.ofConnections(50), connector, () -> now);
    List<FakeWaiter> burst = acquire(pool, 2_500, "w");
    assertEquals(1, connector.connects.size(), "before any server said how many streams it allows, one connect");
    pool.connected(A, new FakeConnection("h2", 1_000)); // its SETTINGS allow 1,000 streams
    assertEquals(1_000, burst.stream().filter(w -> w.connection != null).count());
    assertEquals(3, connector.connects.size(), "the 1,500 left need two more connections of 1,000, not fifteen of 100");
  }

  @Test
  void whenTheConnectionCarriesLessThanAssumedTheOthersConnect() {
    H2Connector connector = new H2Connector(100);
    ConnectionPool<FakeConnection> pool = new ConnectionPool<>(Limits.ofConnections(10), connector, () -> now);
    List<FakeWaiter> burst = acquire(pool, 5, "w");
    assertEquals(1, connector.connects.size());
    pool.connected(A, new FakeConnection("http1", 1)); // ALPN chose HTTP/1.1
    assertEquals(5, connector.connects.size(), "the four left waiting get a connect each");
    assertEquals(1, burst.stream().filter(w -> w.connection != null).count());
  }

  @Test
  void aConnectionThatStopsTakingStreamsIsClosedOnlyByItsLastRelease() {
    FakeConnector connector = new FakeConnector();
    ConnectionPool<FakeConnection> pool = new ConnectionPool<>(Limits.ofConnections(4), connector, () -> now);
    acquire(pool, 1, "w");
    FakeConnection c = new FakeConnection("h2", 3);
    pool.connected(A, c);
    acquire(pool, 1, "w2");
    c.open = false; // GOAWAY: isOpen() is false from now on
    FakeWaiter late = acquire(pool, 1, "late").get(0);
    assertNull(late.connection, "a connection going away is not handed out");
    pool.release(c, true);
    assertEquals(1, c.closes, "the pool closes it (an HTTP/2 connection closes gracefully after its streams)");
    pool.release(c, true); // the other stream's release is ignored, not double-counted
    assertEquals(1, c.closes);
  }
}
