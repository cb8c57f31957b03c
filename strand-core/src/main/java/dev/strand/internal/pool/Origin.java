package dev.strand.internal.pool;

import java.net.URI;
import java.util.Locale;

/**
 * Where connections go: scheme, host and port. Connections are pooled per origin. HTTP/3
 * connections are pooled apart, under the scheme {@code "h3"} and the UDP port they go to
 * ({@link #http3(int)}).
 *
 * @param host as in the URL; an IPv6 literal keeps its brackets
 */
public record Origin(String scheme, String host, int port) {
  private static final String HTTP3 = "h3";

  /** The origin of an absolute http(s) URL; the default port is filled in. */
  public static Origin of(URI url) {
    String scheme = url.getScheme().toLowerCase(Locale.ROOT);
    int port = url.getPort();
    return new Origin(scheme, url.getHost().toLowerCase(Locale.ROOT), port < 0 ? defaultPort(scheme) : port);
  }

  /** Whether {@code url} (absolute http or https) has this origin, checked without building one. */
  public boolean isOriginOf(URI url) {
    int p = url.getPort();
    return host.equals(url.getHost()) && scheme.equals(url.getScheme()) && port == (p < 0 ? defaultPort(scheme) : p);
  }

  private static int defaultPort(String scheme) {
    return scheme.equals("https") ? 443 : 80;
  }

  /** Where this {@code https} origin's HTTP/3 connections go: the same host, over QUIC to UDP {@code port}. */
  public Origin http3(int port) {
    return new Origin(HTTP3, host, port);
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

  /** {@code "http://host:port"}, the key of {@link dev.strand.ClientStats#origins()}. */
  @Override
  public String toString() {
    return scheme + "://" + host + ":" + port;
  }
}
