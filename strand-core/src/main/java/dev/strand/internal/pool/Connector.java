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
}
