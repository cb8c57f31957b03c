package dev.strand.http3.internal;

import dev.strand.internal.exchange.NettyConnection;
import dev.strand.internal.netty.Http3Provider;
import dev.strand.internal.netty.NettyEngine;
import dev.strand.internal.pool.Connector;

/** HTTP/3 on Netty's QUIC codec (quiche): what strand-core's engine finds through {@link java.util.ServiceLoader}. */
public final class QuicHttp3Provider implements Http3Provider {
  @Override
  public Connector<NettyConnection> connector(NettyEngine engine) {
    return new QuicConnector(engine);
  }
}
