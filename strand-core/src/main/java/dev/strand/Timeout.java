package dev.strand;

import java.time.Duration;
import java.util.Objects;

/**
 * How long each phase of an exchange may take. A {@code null} phase means "no limit", which only
 * {@link #none()} or an explicit {@code withX(null)} produces: the defaults are 5 seconds each.
 *
 * <ul>
 *   <li>{@code connect}: TCP (and TLS) connection establishment.
 *   <li>{@code read}: the longest silence while waiting for response bytes.
 *   <li>{@code write}: the longest stall while sending the request.
 *   <li>{@code pool}: the longest wait for a pooled connection when the pool is full.
 * </ul>
 *
 * {@snippet :
 * Timeout t = Timeout.DEFAULT.withRead(Duration.ofSeconds(30));
 * }
 */
public record Timeout(Duration connect, Duration read, Duration write, Duration pool) {
  /** Five seconds for every phase. */
  public static final Timeout DEFAULT = of(Duration.ofSeconds(5));

  public Timeout {
    requireNonNegative(connect, "connect");
    requireNonNegative(read, "read");
    requireNonNegative(write, "write");
    requireNonNegative(pool, "pool");
  }

  /** The same limit for all four phases. */
  public static Timeout of(Duration all) {
    Objects.requireNonNull(all, "all");
    return new Timeout(all, all, all, all);
  }

  /** No limit on any phase. A silent server then waits forever: use deliberately. */
  public static Timeout none() {
    return new Timeout(null, null, null, null);
  }

  public Timeout withConnect(Duration connect) {
    return new Timeout(connect, read, write, pool);
  }

  public Timeout withRead(Duration read) {
    return new Timeout(connect, read, write, pool);
  }

  public Timeout withWrite(Duration write) {
    return new Timeout(connect, read, write, pool);
  }

  public Timeout withPool(Duration pool) {
    return new Timeout(connect, read, write, pool);
  }

  private static void requireNonNegative(Duration d, String name) {
    if (d != null && d.isNegative()) {
      throw new IllegalArgumentException("timeout " + name + " must not be negative: " + d);
    }
  }
}
