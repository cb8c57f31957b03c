package dev.strand.internal.connect;

import dev.strand.ConnectException;
import dev.strand.Request;
import dev.strand.Timeout;
import dev.strand.VersionPolicy;
import dev.strand.internal.exchange.Exchange;
import dev.strand.internal.exchange.NettyConnection;
import dev.strand.internal.http1.Http1Connection;
import dev.strand.internal.http1.Http1ResponseHandler;
import dev.strand.internal.http2.Http2Connection;
import dev.strand.internal.pool.Connector;
import dev.strand.internal.pool.Origin;
import dev.strand.internal.pool.Waiter;
import dev.strand.internal.proxy.ProxyServer;
import io.netty.channel.Channel;
import java.time.Duration;

/**
 * Opens connections for the pool ({@link Dialer} gives the byte stream, through a proxy when the
 * engine's settings say so) and builds their pipeline. Cleartext HTTP/1.1: response decoder, then
 * {@link Http1ResponseHandler}, and the connection goes to the pool at once. {@code https}:
 * {@link ConnectionSetup} takes over, and the connection goes to the pool only when TLS and the
 * protocol (ALPN, the server's SETTINGS) are settled; HTTP/2 with prior knowledge goes to the pool
 * once the server's SETTINGS arrived. Connections for upgrades ({@link Origin#upgrade()}) are always
 * HTTP/1.1, and tunnelled through an HTTP proxy. HTTP/3 keys ({@link Origin#isHttp3()}) go to the engine's
 * HTTP/3 connector.
 */
public final class NettyConnector implements Connector<NettyConnection> {
  /** Connection lifecycle at DEBUG, for who routes {@code dev.strand.connections} to a log. */
  private static final System.Logger LOG = System.getLogger("dev.strand.connections");

  private final ConnectContext engine;
  private final int maxHeaderSize;

  public NettyConnector(ConnectContext engine, int maxHeaderSize) {
    this.engine = engine;
    this.maxHeaderSize = maxHeaderSize;
  }

  @Override
  public void connect(Origin origin, Waiter<NettyConnection> forWaiter) {
    if (origin.isHttp3()) {
      engine.http3().connect(origin, forWaiter);
      return;
    }
    Request request = forWaiter instanceof Exchange x ? x.request : null;
    Duration limit = forWaiter instanceof Exchange x && x.request.timeout() != null
        ? x.request.timeout().connect()
        : Timeout.DEFAULT.connect();
    ProxyServer proxy = engine.proxyFor(origin);
    // An upgrade speaks HTTP/1.1 whatever the policy, and through an HTTP proxy always a CONNECT tunnel (as h2c):
    // forwarding proxies need not relay an upgrade.
    boolean priorKnowledge = engine.versionPolicy() == VersionPolicy.HTTP_2_PRIOR_KNOWLEDGE && !origin.upgrade();
    Dialer.dial(engine, origin, proxy, priorKnowledge || origin.upgrade(), limit, request, (ch, error) -> {
      if (error != null) {
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
          LOG.log(System.Logger.Level.DEBUG, "connecting to " + origin + " failed: " + error);
        }
        engine.pool().connectFailed(origin, error);
        return;
      }
      setUp(ch, origin, proxy, priorKnowledge, limit, request);
    });
  }

  /** Builds the pipeline of a freshly dialled channel, on its event loop. */
  private void setUp(Channel ch, Origin origin, ProxyServer proxy, boolean priorKnowledge, Duration limit,
      Request request) {
    engine.loops().opened(ch);
    if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
      LOG.log(System.Logger.Level.DEBUG, "connected to " + origin + " (" + ch.localAddress() + " -> " + ch.remoteAddress() + ")");
      ch.closeFuture().addListener(f -> LOG.log(System.Logger.Level.DEBUG, "connection to " + origin + " ("
          + ch.localAddress() + ") closed"));
    }
    if (origin.isHttps()) {
      ConnectionSetup.install(ch, engine, origin, limit, request, maxHeaderSize);
    } else if (!ch.isActive()) {
      // A tunnel whose proxy hung up right after its answer to CONNECT: no close event would reach handlers
      // added now (ConnectionSetup does the same for TLS).
      engine.pool().connectFailed(origin, new ConnectException("connection to " + origin.socketHost() + ":"
          + origin.port() + " closed before it was set up" + (request == null ? "" : " (" + request + ")"), request));
      return;
    } else if (priorKnowledge) {
      Http2Connection.install(ch, engine.pool(), origin, limit, maxHeaderSize);
    } else {
      boolean forward = Dialer.route(proxy, origin, origin.upgrade()) == Dialer.Route.FORWARD;
      engine.pool().connected(origin, Http1Connection.install(ch, engine.pool(), origin, forward ? proxy : null, maxHeaderSize));
    }
    ch.read(); // an idle connection keeps a read pending, to see the peer close it
  }

  /** HTTP/2 connections carry many exchanges: a burst waits for one rather than opening one per request. */
  @Override
  public int expectedCapacity(Origin origin) {
    if (origin.isHttp3()) {
      return engine.http3().expectedCapacity(origin);
    }
    boolean h2 = !origin.upgrade() && (engine.versionPolicy() == VersionPolicy.HTTP_2_PRIOR_KNOWLEDGE
        || (Protocols.offersH2(engine.versionPolicy()) && origin.isHttps()));
    return h2 ? Http2Connection.DEFAULT_STREAMS : 1;
  }
}
