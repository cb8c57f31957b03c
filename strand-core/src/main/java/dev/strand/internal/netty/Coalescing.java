package dev.strand.internal.netty;

import dev.strand.internal.exchange.NettyConnection;
import dev.strand.internal.http2.Http2Connection;
import dev.strand.internal.pool.ConnectionPool;
import dev.strand.internal.pool.Origin;
import java.net.InetAddress;
import java.security.cert.Certificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * HTTP/2 connection coalescing (RFC 9113 section 9.1.1), as browsers and OkHttp do it: a request to an https origin
 * that has no connection of its own may go on another origin's HTTP/2 connection when that connection's server
 * is at an address the request's host resolves to, on the same port, and its verified certificate covers the host
 * too. A {@code 421 Misdirected Request} on a shared connection sends the request again on a connection of its
 * own, and that origin is not coalesced again.
 *
 * <p>Which origin shares whose connection is remembered, and checked to be still open on each use; the
 * certificate check is the standard host-name match (RFC 6125: a {@code dNSName} entry, a wildcard only as the
 * whole left-most label).
 */
final class Coalescing {
  private final ConcurrentHashMap<Origin, Origin> shared = new ConcurrentHashMap<>();
  private final Set<Origin> misdirected = ConcurrentHashMap.newKeySet();

  /** The origin whose connection {@code origin} already shares, if that connection is still open; else null. */
  Origin sharedFor(Origin origin, ConnectionPool<NettyConnection> pool) {
    Origin other = shared.get(origin);
    if (other != null && pool.liveConnections(other).isEmpty()) {
      shared.remove(origin, other);
      return null;
    }
    return other;
  }

  /** Whether any other origin has an HTTP/2 connection {@code origin} might share: worth a lookup of its name. */
  boolean mayShare(Origin origin, ConnectionPool<NettyConnection> pool) {
    if (misdirected.contains(origin) || isIpLiteral(origin.host()) || !pool.liveConnections(origin).isEmpty()) {
      return false;
    }
    for (Origin other : pool.origins()) {
      if (candidate(origin, other) && pool.liveConnections(other).stream().anyMatch(Http2Connection.class::isInstance)) {
        return true;
      }
    }
    return false;
  }

  /**
   * An origin with an open HTTP/2 connection that {@code origin}, whose connections would go to {@code port} at
   * one of {@code addresses}, may share; remembered for later requests. Null if none.
   */
  Origin find(Origin origin, int port, List<InetAddress> addresses, ConnectionPool<NettyConnection> pool) {
    for (Origin other : pool.origins()) {
      if (!candidate(origin, other)) {
        continue;
      }
      for (NettyConnection c : pool.liveConnections(other)) {
        if (c instanceof Http2Connection h2 && h2.remoteAddress().getPort() == port
            && addresses.contains(h2.remoteAddress().getAddress())
            && covers(h2.tlsSession(), origin.host())) {
          shared.put(origin, other);
          return other;
        }
      }
    }
    return null;
  }

  /** A 421 on a connection shared with another origin: {@code origin} gets connections of its own from now on. */
  void misdirected(Origin origin) {
    misdirected.add(origin);
    shared.remove(origin);
  }

  private static boolean candidate(Origin origin, Origin other) {
    return !other.equals(origin) && other.isHttps() && !other.isHttp3() && other.port() == origin.port();
  }

  /** Whether the session's verified leaf certificate names {@code host} (RFC 6125). */
  static boolean covers(SSLSession session, String host) {
    if (session == null) {
      return false;
    }
    Certificate[] chain;
    try {
      chain = session.getPeerCertificates();
    } catch (SSLPeerUnverifiedException e) {
      return false;
    }
    if (chain.length == 0 || !(chain[0] instanceof X509Certificate leaf)) {
      return false;
    }
    Collection<List<?>> names;
    try {
      names = leaf.getSubjectAlternativeNames();
    } catch (CertificateParsingException e) {
      return false;
    }
    if (names == null) {
      return false;
    }
    String wanted = host.toLowerCase(Locale.ROOT);
    for (List<?> name : names) {
      if (Integer.valueOf(2).equals(name.get(0)) && name.get(1) instanceof String dns && matches(dns, wanted)) {
        return true;
      }
    }
    return false;
  }

  /** A {@code dNSName} pattern against a lower-case host: exact, or {@code *.rest} for one label before rest. */
  static boolean matches(String pattern, String host) {
    String p = pattern.toLowerCase(Locale.ROOT);
    if (!p.startsWith("*.")) {
      return p.equals(host);
    }
    int dot = host.indexOf('.');
    return dot > 0 && p.substring(1).equals(host.substring(dot)) && p.indexOf('.', 2) > 0;
  }

  private static boolean isIpLiteral(String host) {
    return host.indexOf(':') >= 0 || host.startsWith("[") || host.chars().allMatch(c -> c == '.' || Character.isDigit(c));
  }
}
