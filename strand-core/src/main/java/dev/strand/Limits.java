package dev.strand;

import java.time.Duration;
import java.util.Objects;

/**
 * Bounds of the connection pool.
 *
 * @param maxConnections total connections open at once, across all origins (default 100)
 * @param maxKeepAliveConnections idle connections kept for reuse, across all origins (default 20)
 * @param keepAliveExpiry how long an idle connection is kept before it is closed (default 5 s)
 * @param maxConnectionsPerHost connections open at once to one origin (default: {@code maxConnections})
 */
public record Limits(
    int maxConnections, int maxKeepAliveConnections, Duration keepAliveExpiry, int maxConnectionsPerHost) {
  /** 100 connections, 20 kept alive for 5 s, no separate per-host cap. */
  public static final Limits DEFAULT = new Limits(100, 20, Duration.ofSeconds(5), 100);

  public Limits {
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
  }

  /** {@code n} connections in total and per host, all of which may be kept alive. */
  public static Limits ofConnections(int n) {
    return new Limits(n, n, DEFAULT.keepAliveExpiry(), n);
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
}
