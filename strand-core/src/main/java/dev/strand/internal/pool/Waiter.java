package dev.strand.internal.pool;

/**
 * Someone who asked the pool for a connection. The pool calls exactly one of {@link #onConnection}
 * or {@link #onFailure} once, outside its locks, unless {@link ConnectionPool#cancel} removed the
 * waiter first.
 */
public abstract class Waiter<C extends PooledConnection> {
  // Guarded by the origin pool's lock. A cancelled waiter stays in the queue and is skipped when
  // reached, so cancelling costs O(1).
  boolean queued;
  boolean cancelled;

  /** The caller now holds one exchange slot on {@code connection}; it must {@link ConnectionPool#release} it. */
  protected abstract void onConnection(C connection);

  /** No connection could be made for this waiter (the cause is the connector's or the pool's). */
  protected abstract void onFailure(Throwable cause);
}
