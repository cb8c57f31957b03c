package dev.strand.internal.pool;

/**
 * Opens connections for a {@link ConnectionPool}. An implementation starts connecting and later calls
 * {@link ConnectionPool#connected} or {@link ConnectionPool#connectFailed} exactly once.
 */
public interface Connector<C extends PooledConnection> {
  /**
   * Starts opening a connection to {@code origin}. Called outside pool locks.
   *
   * @param forWaiter the waiter whose request caused the connect (for its connect timeout); the
   *     finished connection goes to whoever is first in line then, which may be another waiter
   */
  void connect(Origin origin, Waiter<C> forWaiter);

  /**
   * How many exchanges a new connection to {@code origin} is expected to carry at once, before one
   * is up (an HTTP/2 connector may know it will speak HTTP/2). The pool then opens one connection
   * for that many waiters rather than one each. Default 1.
   */
  default int expectedCapacity(Origin origin) {
    return 1;
  }
}
