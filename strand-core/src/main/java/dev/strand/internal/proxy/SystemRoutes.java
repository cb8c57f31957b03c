package dev.strand.internal.proxy;

import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;

/**
 * The routes a {@link ProxySelector} gives: the JVM's default one ({@code selector} {@code null},
 * looked up on each connect so that a {@link ProxySelector#setDefault} later counts), which reads
 * {@code http.proxyHost}, {@code https.proxyHost}, {@code socksProxyHost} and {@code http.nonProxyHosts}
 * (and the desktop's settings with {@code java.net.useSystemProxies}), or a given one (a PAC library's).
 * The first usable answer is taken; a SOCKS answer means SOCKS5. A selector that throws sends the
 * connection direct, as browsers do when a PAC script fails, with a warning.
 */
public record SystemRoutes(ProxySelector selector) implements ProxyRouter {
  private static final System.Logger LOG = System.getLogger("dev.strand.proxy");

  @Override
  public ProxyServer select(String scheme, String host, int port) {
    ProxySelector s = selector != null ? selector : ProxySelector.getDefault();
    if (s == null) {
      return null;
    }
    String asked = switch (scheme.toLowerCase(Locale.ROOT)) {
      case "http", "ws" -> "http";
      case "https", "wss" -> "https";
      default -> null;
    };
    if (asked == null) {
      return null;
    }
    List<java.net.Proxy> answers;
    try {
      String h = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
      answers = s.select(new URI(asked, null, h, port, "/", null, null));
    } catch (URISyntaxException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "the proxy selector " + s + " failed for " + asked + "://" + host + ":" + port
          + "; connecting directly", e);
      return null;
    }
    for (java.net.Proxy p : answers == null ? List.<java.net.Proxy>of() : answers) {
      if (p.type() == java.net.Proxy.Type.DIRECT) {
        return null;
      }
      if (p.address() instanceof InetSocketAddress a) {
        return ProxyServer.of(p.type() == java.net.Proxy.Type.SOCKS ? ProxyServer.Kind.SOCKS5 : ProxyServer.Kind.HTTP,
            a.getHostString(), a.getPort());
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return selector == null ? "system" : "selector " + selector;
  }
}
