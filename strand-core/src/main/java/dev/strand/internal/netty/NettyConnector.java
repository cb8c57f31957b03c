package dev.strand.internal.netty;

import dev.strand.Request;
import dev.strand.Timeout;
import dev.strand.Version;
import dev.strand.internal.pool.Connector;
import dev.strand.internal.pool.Origin;
import dev.strand.internal.pool.Waiter;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Opens TCP connections and builds their pipeline. Cleartext HTTP/1.1: response decoder, then
 * {@link Http1ResponseHandler}, and the connection goes to the pool once TCP is up. {@code https}
 * and HTTP/2 prior knowledge: {@link ConnectionSetup} takes over, and the connection goes to the pool
 * only when TLS and the protocol (ALPN, the server's SETTINGS) are settled.
 *
 * <p>Host names are resolved on a virtual thread (the JDK resolver blocks), never on an event loop;
 * IP literals need no resolution.
 */
final class NettyConnector implements Connector<NettyConnection> {
  private final NettyEngine engine;
  private final int maxHeaderSize;

  NettyConnector(NettyEngine engine, int maxHeaderSize) {
    this.engine = engine;
    this.maxHeaderSize = maxHeaderSize;
  }

  @Override
  public void connect(Origin origin, Waiter<NettyConnection> forWaiter) {
    Request request = forWaiter instanceof Exchange x ? x.request : null;
    Duration limit = forWaiter instanceof Exchange x && x.request.timeout() != null
        ? x.request.timeout().connect()
        : Timeout.DEFAULT.connect();
    Bootstrap b = bootstrap(engine, limit).handler(new ChannelInitializer<Channel>() {
      @Override
      protected void initChannel(Channel ch) {
        setUp(ch, origin, limit, request);
      }
    });
    resolveThenConnect(b, origin, f -> {
      if (f.isSuccess()) {
        Channel ch = f.channel();
        Http1ResponseHandler h1 = ch.pipeline().get(Http1ResponseHandler.class);
        if (h1 != null) {
          engine.pool.connected(origin, h1.connection);
        } // else ConnectionSetup reports when TLS and the protocol are settled
        ch.read(); // an idle connection keeps a read pending, to see the peer close it
      } else {
        engine.pool.connectFailed(origin, f.cause());
      }
    }, e -> engine.pool.connectFailed(origin, e));
  }

  /** A bootstrap with the options every connection of this engine uses: auto-read off, no Nagle, keep-alive. */
  static Bootstrap bootstrap(NettyEngine engine, Duration connectLimit) {
    return new Bootstrap()
        .group(engine.loops.group)
        .channel(engine.loops.channelType)
        .option(ChannelOption.AUTO_READ, false)
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.SO_KEEPALIVE, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS,
            connectLimit == null ? 0 : (int) Math.max(1, Math.min(Integer.MAX_VALUE, connectLimit.toMillis())));
  }

  /**
   * Connects {@code b} to the origin; a host name is resolved on a virtual thread first (the JDK
   * resolver blocks). {@code connected} sees the connect future; {@code unresolved} the resolver's failure.
   */
  static void resolveThenConnect(Bootstrap b, Origin origin, ChannelFutureListener connected,
      Consumer<Exception> unresolved) {
    String host = origin.socketHost();
    if (NetUtil.isValidIpV4Address(host) || NetUtil.isValidIpV6Address(host)) {
      b.connect(new InetSocketAddress(host, origin.port())).addListener(connected);
      return;
    }
    Thread.ofVirtual().name("strand-resolve").start(() -> {
      InetAddress address;
      try {
        address = InetAddress.getByName(host);
      } catch (Exception e) {
        unresolved.accept(e);
        return;
      }
      b.connect(new InetSocketAddress(address, origin.port())).addListener(connected);
    });
  }

  /** HTTP/2 connections carry many exchanges: a burst waits for one rather than opening one per request. */
  @Override
  public int expectedCapacity(Origin origin) {
    boolean h2 = engine.version == Version.HTTP_2_PRIOR_KNOWLEDGE || (engine.version == Version.HTTP_2 && origin.isHttps());
    return h2 ? Http2Connection.DEFAULT_STREAMS : 1;
  }

  private void setUp(Channel ch, Origin origin, Duration limit, Request request) {
    if (origin.isHttps() || engine.version == Version.HTTP_2_PRIOR_KNOWLEDGE) {
      ConnectionSetup.install(ch, engine, origin, limit, request, maxHeaderSize);
    } else {
      http1(ch, engine, origin, maxHeaderSize);
    }
  }

  /** Adds the HTTP/1.1 handlers at the end of the pipeline. */
  static Http1Connection http1(Channel ch, NettyEngine engine, Origin origin, int maxHeaderSize) {
    ResponseDecoder decoder = new ResponseDecoder(maxHeaderSize);
    Http1Connection connection = new Http1Connection(ch, engine, decoder, origin, maxHeaderSize);
    ch.pipeline().addLast("http-decoder", decoder).addLast("strand", new Http1ResponseHandler(connection));
    return connection;
  }
}
