package dev.strand;

import java.time.Duration;
import java.util.Objects;

/**
 * How long each phase of an exchange may take. A {@code null} phase means "no limit", which only
 * {@link #none()} or an explicit {@code null} produces: the defaults are 5 seconds each.
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
 * <p>An immutable value: two timeouts with the same limits are equal. Build one with {@link #builder()}
 * (which starts from {@link #DEFAULT}), or derive one with the {@code withX} methods or {@link #toBuilder()}.
 *
 * {@snippet :
 * Timeout t = Timeout.DEFAULT.withRead(Duration.ofSeconds(30)).withCall(Duration.ofMinutes(2));
 * Timeout u = Timeout.builder().connect(Duration.ofSeconds(2)).read(Duration.ofSeconds(1)).build();
 * }
 */
public final class Timeout {
  /** Five seconds for every phase, no limit on the whole call. */
  public static final Timeout DEFAULT = of(Duration.ofSeconds(5));

  private final Duration connect;
  private final Duration read;
  private final Duration write;
  private final Duration pool;
  private final Duration call;

  private Timeout(Duration connect, Duration read, Duration write, Duration pool, Duration call) {
    this.connect = requireNonNegative(connect, "connect");
    this.read = requireNonNegative(read, "read");
    this.write = requireNonNegative(write, "write");
    this.pool = requireNonNegative(pool, "pool");
    this.call = requireNonNegative(call, "call");
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

  /** A builder holding {@link #DEFAULT}'s limits: 5 seconds for every phase, none on the whole call. */
  public static Builder builder() {
    return DEFAULT.toBuilder();
  }

  /** A builder holding this timeout's limits. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** The limit on connection establishment, TCP and TLS ({@code null}: none). */
  public Duration connect() {
    return connect;
  }

  /** The longest silence while waiting for response bytes ({@code null}: none). */
  public Duration read() {
    return read;
  }

  /** The longest stall while sending the request ({@code null}: none). */
  public Duration write() {
    return write;
  }

  /** The longest wait for a pooled connection when the pool is full ({@code null}: none). */
  public Duration pool() {
    return pool;
  }

  /** The limit on the whole call ({@code null}: none). */
  public Duration call() {
    return call;
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

  @Override
  public boolean equals(Object o) {
    return o instanceof Timeout t
        && Objects.equals(connect, t.connect)
        && Objects.equals(read, t.read)
        && Objects.equals(write, t.write)
        && Objects.equals(pool, t.pool)
        && Objects.equals(call, t.call);
  }

  @Override
  public int hashCode() {
    return Objects.hash(connect, read, write, pool, call);
  }

  @Override
  public String toString() {
    return "Timeout[connect=" + connect + ", read=" + read + ", write=" + write + ", pool=" + pool + ", call=" + call
        + "]";
  }

  private static Duration requireNonNegative(Duration d, String name) {
    if (d != null && d.isNegative()) {
      throw new IllegalArgumentException("timeout " + name + " must not be negative: " + d);
    }
    return d;
  }

  /**
   * Sets single limits of a {@link Timeout}; {@code null} means no limit on that phase. Not thread-safe.
   *
   * {@snippet :
   * Timeout t = Timeout.builder()
   *     .connect(Duration.ofSeconds(2))    // TCP and TLS
   *     .read(Duration.ofSeconds(1))       // each silence while waiting for bytes
   *     .call(Duration.ofMinutes(1))       // the whole call
   *     .build();
   * }
   */
  public static final class Builder {
    private Duration connect;
    private Duration read;
    private Duration write;
    private Duration pool;
    private Duration call;

    private Builder(Timeout from) {
      connect = from.connect;
      read = from.read;
      write = from.write;
      pool = from.pool;
      call = from.call;
    }

    /** TCP (and TLS) connection establishment. */
    public Builder connect(Duration connect) {
      this.connect = connect;
      return this;
    }

    /** The longest silence while waiting for response bytes. */
    public Builder read(Duration read) {
      this.read = read;
      return this;
    }

    /** The longest stall while sending the request. */
    public Builder write(Duration write) {
      this.write = write;
      return this;
    }

    /** The longest wait for a pooled connection when the pool is full. */
    public Builder pool(Duration pool) {
      this.pool = pool;
      return this;
    }

    /** The whole call, end to end (none by default). */
    public Builder call(Duration call) {
      this.call = call;
      return this;
    }

    /** @throws IllegalArgumentException if a limit is negative */
    public Timeout build() {
      return new Timeout(connect, read, write, pool, call);
    }
  }
}
