package dev.strand.internal.netty;

import dev.strand.ClientStats;
import dev.strand.Limits;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.Timeout;
import dev.strand.Tls;
import dev.strand.VersionPolicy;
import dev.strand.WebSocket;
import dev.strand.internal.connect.ConnectContext;
import dev.strand.internal.connect.DialSettings;
import dev.strand.internal.connect.EventLoops;
import dev.strand.internal.connect.NettyConnector;
import dev.strand.internal.connect.TlsSetup;
import dev.strand.internal.connect.Protocols;
import dev.strand.internal.exchange.ErrorMapper;
import dev.strand.internal.exchange.Exchange;
import dev.strand.internal.exchange.NettyConnection;
import dev.strand.internal.http1.Http1Connection;
import dev.strand.internal.pool.AltServices;
import dev.strand.internal.pool.ConnectionPool;
import dev.strand.internal.pool.Connector;
import dev.strand.internal.pool.Origin;
import dev.strand.internal.proxy.ForwardChallenge;
import dev.strand.internal.proxy.ProxyRouter;
import dev.strand.internal.proxy.ProxyRoutes;
import dev.strand.internal.proxy.ProxyServer;
import dev.strand.internal.websocket.WebSocketConnector;
import io.netty.channel.EventLoopGroup;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * HTTP/1.1 and HTTP/2 over Netty with a per-origin pool, and HTTP/3 in the same pool when the
 * {@code strand-http3} module provides it ({@link Http3Provider}): the engine behind
 * {@link dev.strand.NettyTransport}. Which connections a request uses is decided here, once, in
 * {@link #send}: HTTP/3 for an {@code https} origin under {@link VersionPolicy#HTTP_3_ONLY}, under
 * {@link VersionPolicy#HTTP_3_FIRST} unless its QUIC endpoint failed lately, or under
 * {@link VersionPolicy#HTTP_3_ALT_SVC} where {@link AltServices} knows a live alternative; TCP otherwise.
 */
public final class NettyEngine implements Exchange.Dispatch, ConnectContext {
  final EventLoops loops;
  final ConnectionPool<NettyConnection> pool;
  final TlsSetup tls;
  final VersionPolicy policy;
  private final int maxHeaderSize;
  /** HTTP/3 connections (Origin.http3 keys), or {@code null} under a policy without HTTP/3. */
  final Connector<NettyConnection> http3;
  private final AltServices altServices = new AltServices();
  private final Coalescing coalescing = new Coalescing();
  private final WebSocketConnector webSockets;
  private final ProxyRouter proxy;
  /** Where every connection goes instead of the origin's address, or {@code null} for TCP. */
  final Path unixSocket;
  private final DialSettings dialing;
  private final long expiryNanos;
  private volatile boolean closed;
  /** The origin of the last request sent; see {@link #originOf}. */
  private volatile Origin lastOrigin;

  /**
   * @param tls the TLS settings, or {@code null} for {@link Tls#system()} built on first use
   * @param proxy which proxy each origin is reached through
   * @param unixSocket the Unix domain socket every connection goes to, or {@code null} for TCP
   * @throws IllegalArgumentException if {@code tls} names unusable files (its context is built here)
   */
  public NettyEngine(Limits limits, int ioThreads, int maxHeaderSize, boolean preferNative, Tls tls,
      VersionPolicy policy, ProxyRouter proxy, Path unixSocket, DialSettings dialing) {
    this(limits, new TlsSetup(tls, policy), http3Provider(policy), EventLoops.create(ioThreads, preferNative), policy,
        proxy, unixSocket, dialing, (ConnectorFactory) engine -> new NettyConnector(engine, maxHeaderSize), maxHeaderSize);
  }

  /** With another way to connect: tests put HTTP/1.1 connections on an {@code EmbeddedChannel}. */
  @SuppressWarnings("unchecked")
  public NettyEngine(Limits limits, EventLoops loops, Function<NettyEngine, Connector<Http1Connection>> connector) {
    // A connector of Http1Connections only ever hands the pool NettyConnections; waiters are Exchanges.
    this(limits, new TlsSetup(null, VersionPolicy.HTTP_1_1), null, loops, VersionPolicy.HTTP_1_1, ProxyRoutes.DIRECT,
        null, DialSettings.DEFAULT,
        (ConnectorFactory) e -> (Connector<NettyConnection>) (Connector<?>) connector.apply(e), 64 * 1024);
  }

  // TLS and the HTTP/3 module first: a configuration error then fails before any thread is started.
  private NettyEngine(Limits limits, TlsSetup tls, Http3Provider http3, EventLoops loops, VersionPolicy policy,
      ProxyRouter proxy, Path unixSocket, DialSettings dialing, ConnectorFactory connector, int maxHeaderSize) {
    this.loops = loops;
    this.dialing = dialing;
    this.proxy = proxy;
    this.unixSocket = unixSocket;
    this.webSockets = new WebSocketConnector(this, this);
    this.tls = tls;
    this.policy = policy;
    this.maxHeaderSize = maxHeaderSize;
    this.http3 = http3 == null ? null : http3.connector(this);
    this.pool = new ConnectionPool<>(limits, connector.create(this), System::nanoTime);
    loops.busyWhile(pool::isConnecting);
    this.expiryNanos = limits.keepAliveExpiry().toNanos();
    if (expiryNanos > 0) {
      scheduleSweep(expiryNanos);
    }
    OpenEngines.opened(this);
  }

  /** See {@link dev.strand.spi.Transport#send}. */
  public CompletableFuture<StreamingResponse> send(Request request) {
    URI url = request.url();
    if (url.getScheme() == null || url.getHost() == null) {
      return CompletableFuture.failedFuture(
          new ProtocolException("the transport needs an absolute URL, got " + url, request));
    }
    Origin origin = originOf(url);
    // A 407 to an http request may be a forwarding proxy's; any other is the origin's.
    boolean proxied = !origin.isHttps() && policy != VersionPolicy.HTTP_2_PRIOR_KNOWLEDGE && unixSocket == null;
    // With one origin in the pool there is no connection to share: no follow-up to arrange.
    boolean sharable = pool.hasOriginsBesides(origin) && mayCoalesce(origin);
    Exchange first = start(request, origin);
    if (!proxied && !sharable) {
      return first.future;
    }
    return new FollowUps(first.future, (r, followUps) -> {
      if (r.status() == 421 && first.isCoalesced()) {
        return misdirected(request, origin, r, again -> followUps.track(sendOnce(again, origin)));
      }
      if (r.status() == 407 && proxied) {
        return forwardedChallenge(request, origin, r, again -> followUps.track(sendOnce(again, origin)));
      }
      return null;
    });
  }

  /**
   * A 407 to an {@code http} request: if an HTTP proxy forwarded it, its authenticator's to answer. The
   * proxy is looked up only now, so that a request that is not challenged does not ask the selector again.
   */
  private CompletableFuture<StreamingResponse> forwardedChallenge(Request request, Origin origin, StreamingResponse r,
      Function<Request, CompletableFuture<StreamingResponse>> resend) {
    ProxyServer proxy = proxyFor(origin);
    if (proxy == null || proxy.kind() != ProxyServer.Kind.HTTP || proxy.tunnelAll()) {
      return CompletableFuture.completedFuture(r);
    }
    URI url = request.url();
    String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
    String target = origin.scheme() + "://" + origin.hostHeader() + path
        + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
    return ForwardChallenge.answer(proxy, request, target, r, resend);
  }

  private CompletableFuture<StreamingResponse> sendOnce(Request request, Origin origin) {
    return start(request, origin).future;
  }

  /** A new exchange for {@code request}, on its way to a connection. */
  private Exchange start(Request request, Origin origin) {
    Exchange exchange = new Exchange(this, request, origin);
    if (origin.isHttps() && !tls.ready()) {
      // The default context is built once, on first use, off the event loops (it reads the system CAs);
      // the wait counts against the connect timeout, so a build that never ends cannot hold the call.
      CompletableFuture<?> ready = tls.whenReady().copy();
      Timeout limits = request.timeout() != null ? request.timeout() : Timeout.DEFAULT;
      if (limits.connect() != null) {
        ready.orTimeout(limits.connect().toNanos(), TimeUnit.NANOSECONDS);
      }
      ready.whenComplete((ctx, error) -> {
        if (error != null) {
          exchange.fail(ErrorMapper.tlsSetup(error, request));
        } else {
          acquire(origin, exchange);
        }
      });
      return exchange;
    }
    acquire(origin, exchange);
    return exchange;
  }

  /**
   * The origin of {@code url}: the last one again when the URL names it (most clients talk to a few hosts),
   * so a request does not build its pool key anew.
   */
  private Origin originOf(URI url) {
    Origin last = lastOrigin;
    if (last != null && last.isOriginOf(url)) {
      return last;
    }
    Origin origin = Origin.of(url);
    lastOrigin = origin;
    return origin;
  }

  /** See {@link dev.strand.spi.Transport#websocket}: an exchange that takes its connection out of the pool. */
  public CompletableFuture<WebSocket> websocket(Request request, WebSocket.Listener listener, int maxMessageSize) {
    if (closed) {
      return CompletableFuture.failedFuture(new dev.strand.TransportException("the client is closed", request));
    }
    return webSockets.open(request, listener, maxMessageSize);
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  private void acquire(Origin origin, Exchange exchange) {
    Origin quic = http3Route(origin);
    if (quic != null) {
      exchange.acquireHttp3(quic, Protocols.tries(policy));
      return;
    }
    if (mayCoalesce(origin)) {
      Origin shared = coalescing.sharedFor(origin, pool);
      if (shared != null) {
        exchange.acquireShared(shared);
        return;
      }
      if (coalescing.mayShare(origin, pool)) {
        // The name is looked up first (on a virtual thread: a resolver may block) to see where it points; the
        // dial that may follow looks it up again, from the resolver's cache as a rule.
        DialSettings.Target target = dialing.target(origin.socketHost(), origin.port());
        Thread.ofVirtual().name("strand-coalesce").start(() -> {
          Origin other = null;
          try {
            other = coalescing.find(origin, target.port(), dialing.dns().lookup(target.host()), pool);
          } catch (java.io.IOException | RuntimeException e) {
            // the dial that follows reports the name's failure in its own words
          }
          if (other != null) {
            exchange.acquireShared(other);
          } else if (pool.acquire(origin, exchange, false)) {
            exchange.armPoolTimer();
          }
        });
        return;
      }
    }
    if (pool.acquire(origin, exchange, false)) {
      exchange.armPoolTimer();
    }
  }

  /**
   * Whether a request to {@code origin} may go on another origin's HTTP/2 connection: https straight to the
   * server (no proxy, no Unix socket), h2 offered, no pins (a pin is checked on the handshake, which a shared
   * connection does not make for this host).
   */
  private boolean mayCoalesce(Origin origin) {
    return origin.isHttps() && Protocols.offersH2(policy) && unixSocket == null && proxyFor(origin) == null
        && tls.tls.pins().isEmpty();
  }

  /**
   * A 421 to a request sent on another origin's connection: sent again, once, on a connection of its origin's
   * own (RFC 9110 15.5.20 allows it whatever the method), if its body can be sent again; else the 421 stands.
   */
  private CompletableFuture<StreamingResponse> misdirected(Request request, Origin origin, StreamingResponse r,
      Function<Request, CompletableFuture<StreamingResponse>> resend) {
    coalescing.misdirected(origin);
    if (request.body() != null && !request.body().isRepeatable()) {
      return CompletableFuture.completedFuture(r);
    }
    r.close();
    return resend.apply(request);
  }

  /** The HTTP/3 connections to send a request to {@code origin} on, or {@code null} for TCP. */
  private Origin http3Route(Origin origin) {
    if (http3 == null || !origin.isHttps() || proxyFor(origin) != null || unixSocket != null) {
      return null; // QUIC needs TLS, and goes through no HTTP or SOCKS proxy nor a Unix socket
    }
    return switch (policy) {
      case HTTP_3_ONLY -> origin.http3(origin.port());
      case HTTP_3_FIRST -> {
        long now = System.nanoTime();
        Origin advertised = altServices.http3For(origin, now);
        if (advertised != null) {
          yield advertised;
        }
        Origin samePort = origin.http3(origin.port());
        yield altServices.isBroken(samePort, now) ? null : samePort;
      }
      default -> altServices.http3For(origin, System.nanoTime());
    };
  }

  /**
   * Under {@link VersionPolicy#HTTP_3_ALT_SVC} and {@link VersionPolicy#HTTP_3_FIRST}: learns what a response's
   * {@code Alt-Svc} says of HTTP/3.
   */
  @Override
  public void responded(Origin origin, StreamingResponse r) {
    if (Protocols.tries(policy) && origin.isHttps() && !origin.upgrade()) {
      List<String> advertised = r.headers().all("alt-svc");
      if (!advertised.isEmpty()) {
        altServices.received(origin, advertised, System.nanoTime());
      }
    }
  }

  // ---- for the HTTP/3 module ----

  /** Reports a QUIC connection that came up (on its event loop). */
  public void http3Connected(Origin quic, NettyConnection c) {
    altServices.succeeded(quic);
    pool.connected(quic, c);
  }

  /** Reports a QUIC connection that could not be set up: the endpoint counts as broken for a while. */
  public void http3Failed(Origin quic, Throwable cause) {
    altServices.failed(quic, System.nanoTime());
    pool.connectFailed(quic, cause);
  }

  /** The pool every connection of this engine is in; HTTP/3 ones release their slots to it. */
  @Override
  public ConnectionPool<NettyConnection> pool() {
    return pool;
  }

  @Override
  public EventLoopGroup timers() {
    return loops.group;
  }

  @Override
  public EventLoops loops() {
    return loops;
  }

  @Override
  public TlsSetup tls() {
    return tls;
  }

  @Override
  public VersionPolicy versionPolicy() {
    return policy;
  }

  @Override
  public DialSettings dialing() {
    return dialing;
  }

  @Override
  public Path unixSocket() {
    return unixSocket;
  }

  @Override
  public Connector<NettyConnection> http3() {
    return http3;
  }

  /** The event loops, which carry QUIC's datagram channels too. */
  public io.netty.channel.EventLoopGroup eventLoops() {
    return loops.group;
  }

  /** The datagram channel type that matches {@link #eventLoops()} (epoll or NIO). */
  public Class<? extends io.netty.channel.socket.DatagramChannel> datagramChannelType() {
    return loops.datagramType;
  }

  /** The TLS settings, for a QUIC context built from the same trust and keys. */
  public Tls tlsSettings() {
    return tls.tls;
  }

  /** The largest response header section accepted, in bytes. */
  public int maxHeaderSize() {
    return maxHeaderSize;
  }

  /** What the responses said of HTTP/3 alternatives, and which failed. */
  AltServices altServices() {
    return altServices;
  }

  /**
   * The provider of HTTP/3 when {@code policy} asks for it, found on the class path or module path.
   *
   * @throws IllegalStateException if the policy needs HTTP/3 and the module is missing
   */
  private static Http3Provider http3Provider(VersionPolicy policy) {
    if (!Protocols.usesHttp3(policy)) {
      return null;
    }
    for (ClassLoader loader : new ClassLoader[] {NettyEngine.class.getClassLoader(),
        Thread.currentThread().getContextClassLoader()}) {
      var found = ServiceLoader.load(Http3Provider.class, loader).findFirst();
      if (found.isPresent()) {
        return found.get();
      }
    }
    throw new IllegalStateException("VersionPolicy." + policy.name() + " needs HTTP/3 support: add the artifact "
        + Http3Provider.ARTIFACT + " (same version as strand-core) to the class path");
  }

  /**
   * The proxy to reach {@code origin} through, or {@code null} to connect directly. It depends on
   * the origin alone, so the pool's per-origin keying keeps each route's connections apart.
   */
  @Override
  public ProxyServer proxyFor(Origin origin) {
    return unixSocket != null ? null : proxy.select(origin.scheme(), origin.host(), origin.port());
  }

  public ClientStats stats() {
    return new ClientStats(loops.name, tls.engineName(), pool.connectionsOpened(), pool.stats());
  }

  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    OpenEngines.closed(this);
    webSockets.closeAll();
    pool.close();
    loops.shutdown();
  }

  /** Closes expired idle connections, then sleeps until the next one expires. */
  private void scheduleSweep(long delayNanos) {
    if (closed) {
      return;
    }
    try {
      loops.group.next().schedule(() -> {
        long next = pool.closeExpired(System.nanoTime());
        scheduleSweep(next < 0 ? expiryNanos : Math.max(next, TimeUnit.MILLISECONDS.toNanos(10)));
      }, delayNanos, TimeUnit.NANOSECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // shutting down
    }
  }

  /** Makes the connector once the engine exists (it needs the engine's loops and pool). */
  @FunctionalInterface
  interface ConnectorFactory {
    Connector<NettyConnection> create(NettyEngine engine);
  }
}
