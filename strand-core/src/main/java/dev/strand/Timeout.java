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
 *   <li>{@code call}: the whole call, end to end: waiting for the pool, connecting, every redirect,
 *       retry and back-off, and reading the body (a streamed body too, until it is read or closed).
 *       None by default, since a large download may rightly take long; when it fires the call fails with
 *       {@link CallTimeoutException} and its connection is discarded. OkHttp's {@code callTimeout},
 *       aiohttp's {@code total}, curl's {@code --max-time}.
 * </ul>
 *
 * The phase limits bound each silence; only {@code call} bounds a server that trickles one byte just
 * inside the read timeout forever.
 *
 * {@snippet :
 * Timeout t = Timeout.DEFAULT.withRead(Duration.ofSeconds(30)).withCall(Duration.ofMinutes(2));
 * }
 */
public record Timeout(Duration connect, Duration read, Duration write, Duration pool, Duration call) {
  /** Five seconds for every phase, no limit on the whole call. */
  public static final Timeout DEFAULT = of(Duration.ofSeconds(5));

  public Timeout {
    requireNonNegative(connect, "connect");
    requireNonNegative(read, "read");
    requireNonNegative(write, "write");
    requireNonNegative(pool, "pool");
    requireNonNegative(call, "call");
  }

  /** The four phase limits, with no limit on the whole call. */
  public Timeout(Duration connect, Duration read, Duration write, Duration pool) {
    this(connect, read, write, pool, null);
  }

  /** The same limit for all four phases, and none on the whole call. */
  public static Timeout of(Duration all) {
    Objects.requireNonNull(all, "all");
    return new Timeout(all, all, all, all, null);
  }

  /** No limit on any phase. A silent server then waits forever: use deliberately. */
  public static Timeout none() {
    return new Timeout(null, null, null, null, null);
  }

  public Timeout withConnect(Duration connect) {
    return new Timeout(connect, read, write, pool, call);
  }

  public Timeout withRead(Duration read) {
    return new Timeout(connect, read, write, pool, call);
  }

  public Timeout withWrite(Duration write) {
    return new Timeout(connect, read, write, pool, call);
  }

  public Timeout withPool(Duration pool) {
    return new Timeout(connect, read, write, pool, call);
  }

  /** The limit on the whole call ({@code null}: none). */
  public Timeout withCall(Duration call) {
    return new Timeout(connect, read, write, pool, call);
  }

  private static void requireNonNegative(Duration d, String name) {
    if (d != null && d.isNegative()) {
      throw new IllegalArgumentException("timeout " + name + " must not be negative: " + d);
    }
  }
}
