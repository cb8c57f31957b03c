package dev.strand.internal.proxy;

import java.util.Locale;

/**
 * Which proxy each request goes through: one per target scheme, and the hosts that bypass them.
 * The answer depends only on the target's scheme, host and port, so a pool keyed by origin never
 * mixes connections of two routes.
 *
 * @param http for {@code http} and {@code ws} targets, or {@code null} to go direct
 * @param https for {@code https} and {@code wss} targets, or {@code null} to go direct
 */
public record ProxyRoutes(ProxyServer http, ProxyServer https, NoProxy noProxy) implements ProxyRouter {
  public static final ProxyRoutes DIRECT = new ProxyRoutes(null, null, NoProxy.NONE);

  @Override
  public ProxyServer select(String scheme, String host, int port) {
    ProxyServer p = switch (scheme.toLowerCase(Locale.ROOT)) {
      case "http", "ws" -> http;
      case "https", "wss" -> https;
      default -> null;
    };
    return p == null || noProxy.matches(host.toLowerCase(Locale.ROOT), port) ? null : p;
  }

  @Override
  public String toString() {
    return "http=" + (http == null ? "direct" : http) + ", https=" + (https == null ? "direct" : https)
        + (noProxy.isEmpty() ? "" : ", noProxy=" + noProxy);
  }
}
