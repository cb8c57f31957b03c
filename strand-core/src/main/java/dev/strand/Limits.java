package dev.strand;

import java.time.Duration;
import java.util.Objects;

/**
 * Bounds of the connection pool: an immutable value, equal to another with the same bounds.
 *
 * <ul>
 *   <li>{@code maxConnections}: total connections open at once, across all origins (default 100).
 *   <li>{@code maxKeepAliveConnections}: idle connections kept for reuse, across all origins (default 20).
 *   <li>{@code keepAliveExpiry}: how long an idle connection is kept before it is closed (default 5 s).
 *   <li>{@code maxConnectionsPerHost}: connections open at once to one origin (default: {@code maxConnections}).
 * </ul>
 *
 * {@snippet :
 * Limits limits = Limits.builder().maxConnections(200).maxConnectionsPerHost(20).build();
 * Limits noKeepAlive = Limits.DEFAULT.withMaxKeepAliveConnections(0);
 * }
 */
public final class Limits {
  /** 100 connections, 20 kept alive for 5 s, no separate per-host cap. */
  public static final Limits DEFAULT = new Limits(100, 20, Duration.ofSeconds(5), 100);

  private final int maxConnections;
  private final int maxKeepAliveConnections;
  private final Duration keepAliveExpiry;
  private final int maxConnectionsPerHost;

  private Limits(int maxConnections, int maxKeepAliveConnections, Duration keepAliveExpiry, int maxConnectionsPerHost) {
    if (maxConnections < 1) {
      throw new IllegalArgumentException("maxConnections must be >= 1: " + maxConnections);
    }
    if (maxKeepAliveConnections < 0) {
      throw new IllegalArgumentException("maxKeepAliveConnections must be >= 0: " + maxKeepAliveConnections);
    }
    if (maxConnectionsPerHost < 1) {
      throw new IllegalArgumentException("maxConnectionsPerHost must be >= 1: " + maxConnectionsPerHost);
    }
    Objects.requireNonNull(keepAliveExpiry, "keepAliveExpiry");
    if (keepAliveExpiry.isNegative()) {
      throw new IllegalArgumentException("keepAliveExpiry must not be negative: " + keepAliveExpiry);
    }
    this.maxConnections = maxConnections;
    this.maxKeepAliveConnections = maxKeepAliveConnections;
    this.keepAliveExpiry = keepAliveExpiry;
    this.maxConnectionsPerHost = maxConnectionsPerHost;
  }

  /** {@code n} connections in total and per host, all of which may be kept alive. */
  public static Limits ofConnections(int n) {
    return new Limits(n, n, DEFAULT.keepAliveExpiry(), n);
  }

  /** A builder holding {@link #DEFAULT}'s bounds. */
  public static Builder builder() {
    return DEFAULT.toBuilder();
  }

  /**
   * A builder holding these bounds; a per-host cap equal to the total follows the total, as in
   * {@link #withMaxConnections}.
   */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** Total connections open at once, across all origins. */
  public int maxConnections() {
    return maxConnections;
  }

  /** Idle connections kept for reuse, across all origins. */
  public int maxKeepAliveConnections() {
    return maxKeepAliveConnections;
  }

  /** How long an idle connection is kept before it is closed. */
  public Duration keepAliveExpiry() {
    return keepAliveExpiry;
  }

  /** Connections open at once to one origin. */
  public int maxConnectionsPerHost() {
    return maxConnectionsPerHost;
  }

  /** Sets the total cap; the per-host cap follows it when it was equal to the old total. */
  public Limits withMaxConnections(int n) {
    int perHost = maxConnectionsPerHost == maxConnections ? n : Math.min(maxConnectionsPerHost, n);
    return new Limits(n, maxKeepAliveConnections, keepAliveExpiry, perHost);
  }

  public Limits withMaxKeepAliveConnections(int n) {
    return new Limits(maxConnections, n, keepAliveExpiry, maxConnectionsPerHost);
  }

  public Limits withKeepAliveExpiry(Duration expiry) {
    return new Limits(maxConnections, maxKeepAliveConnections, expiry, maxConnectionsPerHost);
  }

  public Limits withMaxConnectionsPerHost(int n) {
    return new Limits(maxConnections, maxKeepAliveConnections, keepAliveExpiry, n);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Limits l
        && maxConnections == l.maxConnections
        && maxKeepAliveConnections == l.maxKeepAliveConnections
        && keepAliveExpiry.equals(l.keepAliveExpiry)
        && maxConnectionsPerHost == l.maxConnectionsPerHost;
  }

  @Override
  public int hashCode() {
    return Objects.hash(maxConnections, maxKeepAliveConnections, keepAliveExpiry, maxConnectionsPerHost);
  }

  @Override
  public String toString() {
    return "Limits[maxConnections=" + maxConnections + ", maxKeepAliveConnections=" + maxKeepAliveConnections
        + ", keepAliveExpiry=" + keepAliveExpiry + ", maxConnectionsPerHost=" + maxConnectionsPerHost + "]";
  }

  /**
   * Sets single bounds of a {@link Limits}. Unless {@link #maxConnectionsPerHost(int)} is called, the per-host
   * cap is the total. Not thread-safe.
   */
  public static final class Builder {
    private int maxConnections;
    private int maxKeepAliveConnections;
    private Duration keepAliveExpiry;
    private Integer maxConnectionsPerHost; // null: the same as maxConnections

    private Builder(Limits from) {
      maxConnections = from.maxConnections;
      maxKeepAliveConnections = from.maxKeepAliveConnections;
      keepAliveExpiry = from.keepAliveExpiry;
      maxConnectionsPerHost = from.maxConnectionsPerHost == from.maxConnections ? null : from.maxConnectionsPerHost;
    }

    /** Total connections open at once, across all origins (at least 1). */
    public Builder maxConnections(int n) {
      this.maxConnections = n;
      return this;
    }

    /** Idle connections kept for reuse, across all origins (0: none). */
    public Builder maxKeepAliveConnections(int n) {
      this.maxKeepAliveConnections = n;
      return this;
    }

    /** How long an idle connection is kept before it is closed. */
    public Builder keepAliveExpiry(Duration expiry) {
      this.keepAliveExpiry = expiry;
      return this;
    }

    /** Connections open at once to one origin (at least 1). */
    public Builder maxConnectionsPerHost(int n) {
      this.maxConnectionsPerHost = n;
      return this;
    }

    /** @throws IllegalArgumentException if a bound is out of range */
    public Limits build() {
      return new Limits(maxConnections, maxKeepAliveConnections, keepAliveExpiry,
          maxConnectionsPerHost == null ? maxConnections : maxConnectionsPerHost);
    }
  }
}
