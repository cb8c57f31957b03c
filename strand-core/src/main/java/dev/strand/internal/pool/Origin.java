package dev.strand.internal.pool;

import java.net.URI;
import java.util.Locale;

/**
 * Where connections go: scheme, host and port. Connections are pooled per origin. HTTP/3
 * connections are pooled apart, under the scheme {@code "h3"} and the UDP port they go to
 * ({@link #http3(int)}). Connections for requests that switch protocols (WebSocket handshakes) are
 * pooled apart too ({@link #forUpgrade()}): each speaks HTTP/1.1 through a tunnel, and leaves the pool
 * when the server agrees to switch.
 *
 * @param host as in the URL; an IPv6 literal keeps its brackets
 * @param upgrade whether its connections carry requests that switch protocols
 */
public record Origin(String scheme, String host, int port, boolean upgrade) {
  private static final String HTTP3 = "h3";

  public Origin(String scheme, String host, int port) {
    this(scheme, host, port, false);
  }

  /** The origin of an absolute http(s) URL; the default port is filled in. */
  public static Origin of(URI url) {
    String scheme = url.getScheme().toLowerCase(Locale.ROOT);
    int port = url.getPort();
    return new Origin(scheme, url.getHost().toLowerCase(Locale.ROOT), port < 0 ? defaultPort(scheme) : port);
  }

  /** Whether {@code url} (absolute http or https) has this origin, checked without building one. */
  public boolean isOriginOf(URI url) {
    int p = url.getPort();
    return !upgrade && host.equals(url.getHost()) && scheme.equals(url.getScheme()) && port == (p < 0 ? defaultPort(scheme) : p);
  }

  private static int defaultPort(String scheme) {
    return scheme.equals("https") ? 443 : 80;
  }

  /** Where this {@code https} origin's HTTP/3 connections go: the same host, over QUIC to UDP {@code port}. */
  public Origin http3(int port) {
    return new Origin(HTTP3, host, port);
  }

  /** Where this origin's requests that switch protocols go: HTTP/1.1 connections of their own. */
  public Origin forUpgrade() {
    return new Origin(scheme, host, port, true);
  }

  /** Whether this is the key of HTTP/3 (QUIC) connections. */
  public boolean isHttp3() {
    return scheme.equals(HTTP3);
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
    return port == defaultPort(scheme) ? host : host + ":" + port;
  }

  /** {@code "http://host:port"}, the key of {@link dev.strand.ClientStats#origins()}; {@code "ws://host:port"} for upgrades. */
  @Override
  public String toString() {
    return (upgrade ? (isHttps() ? "wss" : "ws") : scheme) + "://" + host + ":" + port;
  }
}
