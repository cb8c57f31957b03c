package dev.strand.internal.netty;

import dev.strand.internal.exchange.NettyConnection;
import dev.strand.internal.pool.Connector;

/**
 * HTTP/3 for the engine, plugged in by the {@code strand-http3} module through {@link java.util.ServiceLoader}
 * (core itself needs no QUIC classes). The connector it makes opens QUIC connections for the engine's
 * pool, for {@link dev.strand.internal.pool.Origin#http3} keys, and reports them with
 * {@link NettyEngine#http3Connected} or {@link NettyEngine#http3Failed}.
 */
public interface Http3Provider {
  /** The artifact that provides HTTP/3, as an error message names it. */
  String ARTIFACT = "dev.strand:strand-http3";

  /** A connector for {@code engine}'s HTTP/3 connections; called once, when the engine is built. */
  Connector<NettyConnection> connector(NettyEngine engine);
}
