package dev.strand.internal.proxy;

/**
 * Which proxy a target goes through. Implementations answer from the target's scheme, host and port
 * alone, so a pool keyed by origin never mixes two routes' connections.
 */
public interface ProxyRouter {
  /** The proxy for a target, or {@code null} to connect directly. */
  ProxyServer select(String scheme, String host, int port);
}
