package dev.strand.internal.proxy;

import dev.strand.ProxyAuthenticator;
import dev.strand.Tls;

/**
 * Routes whose proxies get the user's trust settings for TLS to the proxy and authenticator for its
 * 407s, whichever proxy is selected: so a proxy the JVM's settings or the environment name can be
 * trusted and answered too.
 *
 * @param tls for {@code https://} proxies, or {@code null} to keep each proxy's own
 * @param authenticator or {@code null} to keep each proxy's own
 * @param tunnelAll whether an HTTP proxy gets a CONNECT tunnel for {@code http} targets too
 */
public record DecoratedRoutes(ProxyRouter routes, Tls tls, ProxyAuthenticator authenticator, boolean tunnelAll)
    implements ProxyRouter {
  @Override
  public ProxyServer select(String scheme, String host, int port) {
    ProxyServer p = routes.select(scheme, host, port);
    return p == null ? null : p.withTls(tls).withAuthenticator(authenticator).withTunnelAll(tunnelAll);
  }

  @Override
  public String toString() {
    return routes + (tls == null ? "" : ", proxy tls=" + tls) + (authenticator == null ? "" : ", authenticator=" + authenticator)
        + (tunnelAll ? ", tunnel all" : "");
  }
}
