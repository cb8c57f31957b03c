package dev.strand.internal.pool;

import java.net.URI;
import java.util.Locale;

/**
 * Where connections go: scheme, host and port. Connections are pooled per origin.
 *
 * @param host as in the URL; an IPv6 literal keeps its brackets
 */
public record Origin(String scheme, String host, int port) {
  /** The origin of an absolute http(s) URL; the default port is filled in. */
  public static Origin of(URI url) {
    String scheme = url.getScheme().toLowerCase(Locale.ROOT);
    int port = url.getPort();
    if (port < 0) {
      port = scheme.equals("https") ? 443 : 80;
    }
    return new Origin(scheme, url.getHost().toLowerCase(Locale.ROOT), port);
  }

  public boolean isHttps() {
    return scheme.equals("https");
  }

  /** The host to resolve and connect to: brackets of an IPv6 literal removed. */
  public String socketHost() {
    return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
  }

  /** The value of a Host header for this origin (the port only when it is not the default). */
  public String hostHeader() {
    boolean defaultPort = port == (isHttps() ? 443 : 80);
    return defaultPort ? host : host + ":" + port;
  }

  /** {@code "http://host:port"}, the key of {@link dev.strand.ClientStats#origins()}. */
  @Override
  public String toString() {
    return scheme + "://" + host + ":" + port;
  }
}
