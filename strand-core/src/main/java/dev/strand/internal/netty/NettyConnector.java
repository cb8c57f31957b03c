package dev.strand.internal.netty;

import dev.strand.Timeout;
import dev.strand.internal.pool.Connector;
import dev.strand.internal.pool.Origin;
import dev.strand.internal.pool.Waiter;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * Opens TCP connections and builds their pipeline: response decoder, then {@link Http1ResponseHandler}.
 * A TLS handler would go first in {@link #setUp}; an HTTP/2 connection would be another
 * {@link dev.strand.internal.pool.PooledConnection} with a larger capacity.
 *
 * <p>Host names are resolved on a virtual thread (the JDK resolver blocks), never on an event loop;
 * IP literals need no resolution.
 */
final class NettyConnector implements Connector<Http1Connection> {
  private final NettyEngine engine;
  private final int maxHeaderSize;

  NettyConnector(NettyEngine engine, int maxHeaderSize) {
    this.engine = engine;
    this.maxHeaderSize = maxHeaderSize;
  }

  @Override
  public void connect(Origin origin, Waiter<Http1Connection> forWaiter) {
    Duration limit = forWaiter instanceof Exchange x && x.request.timeout() != null
        ? x.request.timeout().connect()
        : Timeout.DEFAULT.connect();
    Bootstrap b = new Bootstrap()
        .group(engine.loops.group)
        .channel(engine.loops.channelType)
        .option(ChannelOption.AUTO_READ, false)
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.SO_KEEPALIVE, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, limit == null ? 0 : (int) Math.max(1, Math.min(Integer.MAX_VALUE, limit.toMillis())))
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            setUp(ch, origin);
          }
        });
    String host = origin.socketHost();
    if (NetUtil.isValidIpV4Address(host) || NetUtil.isValidIpV6Address(host)) {
      connect(b, new InetSocketAddress(host, origin.port()), origin);
    } else {
      Thread.ofVirtual().name("strand-resolve").start(() -> {
        InetAddress address;
        try {
          address = InetAddress.getByName(host);
        } catch (Exception e) {
          engine.pool.connectFailed(origin, e);
          return;
        }
        connect(b, new InetSocketAddress(address, origin.port()), origin);
      });
    }
  }

  private void connect(Bootstrap b, InetSocketAddress address, Origin origin) {
    b.connect(address).addListener((ChannelFuture f) -> {
      if (f.isSuccess()) {
        Channel ch = f.channel();
        Http1Connection c = ch.pipeline().get(Http1ResponseHandler.class).connection;
        engine.pool.connected(origin, c);
        ch.read(); // an idle connection keeps a read pending, to see the peer close it
      } else {
        engine.pool.connectFailed(origin, f.cause());
      }
    });
  }

  private void setUp(Channel ch, Origin origin) {
    ResponseDecoder decoder = new ResponseDecoder(maxHeaderSize);
    Http1Connection connection = new Http1Connection(ch, engine, decoder, origin, maxHeaderSize);
    ch.pipeline().addLast("http-decoder", decoder).addLast("strand", new Http1ResponseHandler(connection));
  }
}
