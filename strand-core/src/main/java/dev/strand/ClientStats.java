package dev.strand;

import java.util.Map;

/**
 * A snapshot of a client's connections.
 *
 * @param transport how bytes move: {@code "epoll"}, {@code "io_uring"}, {@code "nio"} or {@code "mock"}
 * @param tlsEngine the TLS implementation in use ({@code "jdk"} or {@code "openssl"}), or {@code "none"}
 * @param connectionsOpened connections opened since the client was built
 * @param origins per origin ({@code "http://host:port"}): open, idle, in-use and pending counts
 */
public record ClientStats(String transport, String tlsEngine, long connectionsOpened, Map<String, OriginStats> origins) {
  public static final ClientStats EMPTY = new ClientStats("none", "none", 0, Map.of());

  public ClientStats {
    origins = Map.copyOf(origins);
  }

  /** Open connections over all origins. */
  public int open() {
    return origins.values().stream().mapToInt(OriginStats::open).sum();
  }

  /** Idle connections over all origins. */
  public int idle() {
    return origins.values().stream().mapToInt(OriginStats::idle).sum();
  }

  /** Connections in use over all origins. */
  public int inUse() {
    return origins.values().stream().mapToInt(OriginStats::inUse).sum();
  }

  /** Requests waiting for a connection over all origins. */
  public int pending() {
    return origins.values().stream().mapToInt(OriginStats::pending).sum();
  }

  /**
   * Counts for one origin.
   *
   * @param open connections open (idle + in use + being established)
   * @param idle connections kept for reuse
   * @param inUse connections carrying an exchange
   * @param pending requests waiting for a connection
   */
  public record OriginStats(int open, int idle, int inUse, int pending) {}
}
