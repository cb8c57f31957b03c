package dev.strand.internal.pool;

/**
 * A connection as the pool sees it: something that can carry {@link #capacity()} exchanges at once
 * (1 for HTTP/1.1; an HTTP/2 connection would return its max concurrent streams), can tell whether
 * it is still open, and can be closed. The bookkeeping fields belong to the {@link OriginPool} and
 * are guarded by its lock.
 */
public abstract class PooledConnection {
  OriginPool<?> pool;
  int active;
  long idleSince;
  boolean inAvailable;
  boolean removed;
  int uses;

  /** Exchanges this connection can carry at once. */
  public int capacity() {
    return 1;
  }

  /** Whether the connection is still usable (the peer has not closed it). Cheap; called under the pool lock. */
  public abstract boolean isOpen();

  /** Closes the connection. Called outside any pool lock; must not call back into the pool synchronously. */
  public abstract void close();

  /** Whether this connection carried an exchange before the current one (a stale reuse may be retried). */
  public final boolean isReused() {
    return uses > 1;
  }
}
