package dev.strand.internal.connect;

import dev.strand.VersionPolicy;
import dev.strand.internal.exchange.NettyConnection;
import dev.strand.internal.pool.ConnectionPool;
import dev.strand.internal.pool.Connector;
import dev.strand.internal.pool.Origin;
import dev.strand.internal.proxy.ProxyServer;
import java.nio.file.Path;

/**
 * What opening a connection needs of the engine: its threads, TLS, protocol policy, routes, and the
 * pool a new connection is announced to. The connections themselves get only the pool.
 */
public interface ConnectContext {
  EventLoops loops();

  ConnectionPool<NettyConnection> pool();

  TlsSetup tls();

  /** The engine's protocol policy. */
  VersionPolicy versionPolicy();

  /** The proxy that {@code origin} is reached through, or {@code null} for a direct connection. */
  ProxyServer proxyFor(Origin origin);

  /** How names become connections: resolver, Happy Eyeballs timings, local address, {@code --connect-to} rules. */
  DialSettings dialing();

  /** The Unix domain socket every connection goes to, or {@code null} for TCP. */
  Path unixSocket();

  /** The HTTP/3 connector, or {@code null} when the engine does not speak HTTP/3. */
  Connector<NettyConnection> http3();

  boolean isClosed();
}
