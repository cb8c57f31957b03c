/**
 * The connection pool: connections per origin ({@link dev.strand.internal.pool.OriginPool}), the
 * waiters for a free one, the limits, idle eviction and the {@code Alt-Svc} table. Plain code without
 * Netty; it reaches connections only through {@link dev.strand.internal.pool.Connector} and
 * {@link dev.strand.internal.pool.PooledConnection} ({@code LayeringTest}).
 */
package dev.strand.internal.pool;
