package dev.strand.internal.connect;

import dev.strand.HttpException;
import dev.strand.Request;
import dev.strand.internal.events.CallEvents;
import dev.strand.internal.exchange.ErrorMapper;
import dev.strand.internal.pool.Origin;
import dev.strand.internal.proxy.ProxyServer;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import dev.strand.internal.proxy.HttpTunnelHandler;
import dev.strand.internal.proxy.TunnelFailure;
import dev.strand.internal.tls.TlsContexts;
import dev.strand.internal.tls.TlsErrors;
import io.netty.handler.proxy.ProxyHandler;
import io.netty.handler.proxy.Socks5ProxyHandler;
import io.netty.handler.ssl.SslHandler;
import io.netty.resolver.NoopAddressResolverGroup;
import io.netty.util.AttributeKey;
import io.netty.util.NetUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Opens the byte stream to an origin, on the route the engine's proxy settings give it: TCP
 * straight to the server; TCP to an HTTP proxy that forwards absolute-form requests (cleartext
 * HTTP/1.1); or a tunnel through the proxy ({@code CONNECT} for an HTTP proxy, SOCKS5), over which
 * the caller then runs TLS and the protocol as if connected directly.
 *
 * <p>The connect timeout bounds TCP to the proxy and the tunnel exchange together (the TLS
 * handshake that may follow has its own). Host names are resolved on a virtual thread; a tunnelled
 * server's name is left to the proxy.
 */
public final class Dialer {
  private static final String DIAL_ERRORS = "dial-errors";
  private static final String PROXY_TLS = "proxy-tls";
  /** What TLS to an {@code https://} proxy offers: the proxy speaks HTTP/1.1, whatever runs in the tunnel. */
  private static final List<String> PROXY_ALPN = List.of("http/1.1");
  /** The largest response head to a {@code CONNECT}. */
  private static final int MAX_CONNECT_HEAD = 64 * 1024;
  /** The tunnel handler of an attempt's channel, for the attempt that wins the race. */
  private static final AttributeKey<ProxyHandler> TUNNEL = AttributeKey.valueOf("strand.tunnel");

  private Dialer() {}

  /** How a connection reaches its origin. */
  enum Route {
    DIRECT,
    /** To an HTTP proxy that receives absolute-form requests. */
    FORWARD,
    TUNNEL
  }

  /**
   * The route to {@code origin}: a tunnel for https, SOCKS, a proxy that tunnels all and {@code mustTunnel},
   * else forwarding.
   *
   * @param mustTunnel cleartext that an HTTP proxy would not forward: h2c by prior knowledge, a WebSocket upgrade
   */
  static Route route(ProxyServer proxy, Origin origin, boolean mustTunnel) {
    if (proxy == null) {
      return Route.DIRECT;
    }
    boolean forward = proxy.kind() == ProxyServer.Kind.HTTP && !proxy.tunnelAll() && !origin.isHttps() && !mustTunnel;
    return forward ? Route.FORWARD : Route.TUNNEL;
  }

  /** What to do with a dialled channel, or with the failure to open one. */
  @FunctionalInterface
  public interface Then {
    /** Exactly one of {@code channel} and {@code failure} is {@code null}. */
    void accept(Channel channel, Throwable failure);
  }

  /**
   * Connects to {@code origin} through {@code proxy} ({@code null}: directly) and calls {@code then}
   * once bytes written to the channel reach the origin (or, on the {@link Route#FORWARD} route, the
   * proxy). A channel is handed over on its event loop, always: the caller builds its pipeline there,
   * so nothing the peer sends (a TLS handshake completing, say) can pass a handler not yet added. The
   * channel does not auto-read and its pipeline holds only the tunnel's handler: the caller adds its own.
   * A name is resolved with the engine's {@link dev.strand.Dns} and its addresses raced
   * ({@link AddressRace}); the engine's Unix domain socket, if any, replaces all of that. Every failure is a
   * {@link dev.strand.ConnectException} (or {@link dev.strand.ConnectTimeoutException}) naming where it
   * failed: the proxy, the tunnel, or the origin with each of its addresses and why.
   *
   * @param engine the loops, dial settings and Unix domain socket to connect with
   * @param mustTunnel as for {@link #route}
   * @param request for error messages; may be {@code null}
   */
  public static void dial(ConnectContext engine, Origin origin, ProxyServer proxy, boolean mustTunnel, Duration limit,
      Request request, Then then) {
    CompletableFuture<Channel> dialed = throughProxy(engine, origin, proxy, mustTunnel, limit, request);
    CompletableFuture<Channel> unwrapped = new CompletableFuture<>(); // the composition wraps failures
    dialed.whenComplete((ch, e) -> {
      if (e != null) {
        unwrapped.completeExceptionally(unwrap(e));
      } else {
        unwrapped.complete(ch);
      }
    });
    whenDialed(unwrapped, then);
  }

  /**
   * {@link #connect}, with what a proxy needs around it: the trust settings for TLS to an {@code https://}
   * proxy built first, off the event loop; and a {@code 407} that came with the proxy closing the
   * connection answered on a new one, within the same deadline ({@link HttpTunnelHandler} answers the
   * others on their own connection).
   */
  private static CompletableFuture<Channel> throughProxy(ConnectContext engine, Origin origin, ProxyServer proxy,
      boolean mustTunnel, Duration limit, Request request) {
    if (proxy == null || engine.unixSocket() != null) {
      return connect(engine, origin, proxy, mustTunnel, limit, request);
    }
    long start = System.nanoTime();
    CompletableFuture<Void> ready = !proxy.secure() ? CompletableFuture.completedFuture(null)
        : CompletableFuture.runAsync(() -> TlsContexts.get(proxy.proxyTls(), PROXY_ALPN),
            r -> Thread.ofVirtual().name("strand-proxy-tls").start(r));
    return ready.exceptionallyCompose(e -> CompletableFuture.failedFuture(
            ErrorMapper.unreachable(unwrap(e), request, "proxy " + proxy.authority())))
        .thenCompose(v -> connect(engine, origin, proxy, mustTunnel, limit, request))
        .exceptionallyCompose(e -> {
          TunnelFailure f = tunnelFailure(e);
          if (f == null || f.challenges() == null) {
            return CompletableFuture.failedFuture(unwrap(e));
          }
          DialSettings.Target target = engine.dialing().target(origin.socketHost(), origin.port());
          return HttpTunnelHandler.answerOnNewConnection(proxy, target.host(), target.port(), f).thenCompose(again -> {
            Duration left = limit == null ? null : limit.minusNanos(System.nanoTime() - start);
            if (again == null || (left != null && (left.isNegative() || left.isZero()))) {
              return CompletableFuture.failedFuture(unwrap(e));
            }
            return throughProxy(engine, origin, again, mustTunnel, left, request);
          });
        });
  }

  private static Throwable unwrap(Throwable e) {
    return e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
  }

  /** The tunnel's own failure behind a dial's, or {@code null}. */
  private static TunnelFailure tunnelFailure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof TunnelFailure f) {
        return f;
      }
    }
    return null;
  }

  /**
   * Calls {@code then} when {@code dialed} completes, a channel on its own event loop. The future is
   * completed on the loop, but an action added after that would run on the thread adding it: on
   * loopback the connect can beat the caller to it.
   */
  static void whenDialed(CompletableFuture<Channel> dialed, Then then) {
    dialed.whenComplete((ch, failure) -> {
      if (ch != null && !ch.eventLoop().inEventLoop()) {
        ch.eventLoop().execute(() -> then.accept(ch, null));
      } else {
        then.accept(ch, failure);
      }
    });
  }

  private static CompletableFuture<Channel> connect(ConnectContext engine, Origin origin, ProxyServer proxy,
      boolean mustTunnel, Duration limit, Request request) {
    EventLoops loops = engine.loops();
    if (engine.unixSocket() != null) {
      return openDomainSocket(loops, engine.unixSocket(), limit, request);
    }
    DialSettings settings = engine.dialing();
    Route route = route(proxy, origin, mustTunnel);
    DialSettings.Target target = settings.target(origin.socketHost(), origin.port());
    CompletableFuture<Channel> dialed = new CompletableFuture<>();
    long start = System.nanoTime();
    String host = proxy != null ? proxy.socketHost() : target.host();
    int port = proxy != null ? proxy.port() : target.port();
    String where = proxy != null ? "proxy " + proxy.authority() : showHost(host) + ":" + port;
    Race race = new Race(loops, settings, origin, target, proxy, route, start, limit, request, where, dialed);
    if (NetUtil.isValidIpV4Address(host) || NetUtil.isValidIpV6Address(host)) {
      race.run(List.of(NetUtil.createInetAddressFromIpAddressString(host)), port);
    } else {
      CallEvents events = CallEvents.of(request);
      Thread.ofVirtual().name("strand-resolve").start(() -> {
        List<InetAddress> addresses;
        try {
          if (events != null) {
            events.dnsStart(host);
          }
          addresses = settings.dns().lookup(host);
          if (addresses == null || addresses.isEmpty()) {
            throw new UnknownHostException(host + ": the resolver (" + settings.dns() + ") returned no address");
          }
          if (events != null) {
            events.dnsEnd(host, addresses);
          }
        } catch (Exception e) {
          dialed.completeExceptionally(ErrorMapper.unreachable(e, request, where));
          return;
        }
        race.run(addresses, port);
      });
    }
    return dialed;
  }

  /** The TCP connections of one dial: every address of a name raced, then the tunnel on the winner. */
  private record Race(EventLoops loops, DialSettings settings, Origin origin, DialSettings.Target target,
      ProxyServer proxy, Route route, long start, Duration limit, Request request, String where,
      CompletableFuture<Channel> dialed) {
    void run(List<InetAddress> resolved, int port) {
      List<InetSocketAddress> addresses = new ArrayList<>();
      InetAddress local = settings.localAddress();
      for (InetAddress a : AddressRace.interleave(resolved)) {
        if (local == null || local.getClass() == a.getClass()) {
          addresses.add(new InetSocketAddress(a, port));
        }
      }
      if (addresses.isEmpty()) {
        dialed.completeExceptionally(ErrorMapper.unreachable(new java.net.ConnectException("no address of "
            + resolved + " is of the local address " + local.getHostAddress() + "'s family"), request, where));
        return;
      }
      long deadline = limit == null ? Long.MAX_VALUE : start + limit.toNanos();
      AddressRace.run(loops.group.next(), addresses, settings.attemptDelay(), settings.attemptTimeout(), deadline,
          CallEvents.of(request), this::open).whenComplete((ch, failure) -> {
            if (failure == null) {
              won(ch);
            } else {
              dialed.completeExceptionally(failed((AddressRace.Failed) failure, addresses));
            }
          });
    }

    private HttpException failed(AddressRace.Failed race, List<InetSocketAddress> addresses) {
      if (addresses.size() == 1 && race.failures.size() == 1) { // worded as ever for a single address
        Throwable only = race.failures.values().iterator().next();
        return ErrorMapper.unreachable(race.timedOut && !(only instanceof io.netty.channel.ConnectTimeoutException)
            ? new io.netty.channel.ConnectTimeoutException(only.getMessage()) : only, request, where);
      }
      return ErrorMapper.everyAddressFailed(race.getMessage(), race.timedOut, request, where);
    }

    private ChannelFuture open(InetSocketAddress address, int timeoutMillis) {
      ProxyHandler tunnel = route == Route.TUNNEL ? tunnelHandler(proxy, address, target) : null;
      Bootstrap b = new Bootstrap()
          .group(loops.group)
          .channel(loops.channelType)
          .option(ChannelOption.AUTO_READ, false)
          .option(ChannelOption.TCP_NODELAY, true)
          .option(ChannelOption.SO_KEEPALIVE, true)
          .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, timeoutMillis)
          .handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              if (proxy != null && proxy.secure()) { // first: CONNECT, or forwarded requests, go inside it
                ch.pipeline().addLast(PROXY_TLS, TlsContexts.get(proxy.proxyTls(), PROXY_ALPN)
                    .newHandler(ch.alloc(), proxy.host(), proxy.port(), limit));
              }
              if (tunnel != null) {
                // The failure reaches the dial's future; the event going on would only be logged.
                ch.pipeline().addLast("proxy", tunnel);
                ch.pipeline().addLast(DIAL_ERRORS, new ChannelInboundHandlerAdapter() {
                  @Override
                  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {}
                });
              }
            }
          });
      if (tunnel != null) {
        b.attr(TUNNEL, tunnel);
      }
      if (settings.localAddress() != null) {
        b.localAddress(new InetSocketAddress(settings.localAddress(), 0));
      }
      SocketAddress remote = address;
      if (tunnel != null) {
        // The proxy handler connects to the proxy and asks it for this target, by name.
        b.resolver(NoopAddressResolverGroup.INSTANCE);
        remote = InetSocketAddress.createUnresolved(target.host(), target.port());
      }
      return b.connect(remote);
    }

    private void won(Channel ch) {
      if (route == Route.FORWARD && proxy.secure()) {
        ch.eventLoop().execute(() -> awaitProxyTls(ch, proxy, request, dialed));
        return;
      }
      if (route != Route.TUNNEL) {
        dialed.complete(ch);
        return;
      }
      ch.eventLoop().execute(() -> awaitTunnel(ch, ch.attr(TUNNEL).get(), origin, proxy, start, limit, request, dialed));
    }
  }

  /** An address as messages show it: {@code [::1]:80}, {@code 127.0.0.1:80}. */
  static String show(InetSocketAddress address) {
    return showHost(address.getAddress() == null ? address.getHostString() : NetUtil.toAddressString(address.getAddress()))
        + ":" + address.getPort();
  }

  private static String showHost(String host) {
    return host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
  }

  /** Why one attempt failed, in a few words. */
  static String reason(Throwable cause) {
    return cause instanceof io.netty.channel.ConnectTimeoutException ? "(timed out)"
        : "(" + ErrorMapper.why(cause) + ")";
  }

  /** A connection to a Unix domain socket: no resolving, no TCP options; a failure names the socket. */
  private static CompletableFuture<Channel> openDomainSocket(EventLoops loops, Path socket, Duration limit, Request request) {
    CompletableFuture<Channel> dialed = new CompletableFuture<>();
    CallEvents events = CallEvents.of(request);
    SocketAddress address = loops.domainAddress(socket);
    if (events != null) {
      events.connectStart(address);
    }
    new Bootstrap()
        .group(loops.group)
        .channel(loops.domainChannelType)
        .option(ChannelOption.AUTO_READ, false)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, limit == null ? 0 : (int) Math.max(1, Math.min(Integer.MAX_VALUE, limit.toMillis())))
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {} // the caller adds its handlers
        })
        .connect(address)
        .addListener((ChannelFuture f) -> {
          if (events != null) {
            if (f.isSuccess()) {
              events.connectEnd(address);
            } else {
              events.connectFailed(address, f.cause());
            }
          }
          if (f.isSuccess()) {
            dialed.complete(f.channel());
          } else {
            dialed.completeExceptionally(ErrorMapper.unixSocketUnreachable(f.cause(), socket, request));
          }
        });
    return dialed;
  }

  private static void awaitTunnel(Channel ch, ProxyHandler tunnel, Origin origin, ProxyServer proxy, long start,
      Duration limit, Request request, CompletableFuture<Channel> dialed) {
    ScheduledFuture<?> timer = null;
    if (limit != null) {
      long remaining = limit.toNanos() - (System.nanoTime() - start);
      timer = ch.eventLoop().schedule(() -> {
        if (dialed.completeExceptionally(ErrorMapper.tunnelTimeout(proxy, origin, limit, request))) {
          ch.close();
        }
      }, Math.max(0, remaining), TimeUnit.NANOSECONDS);
    }
    ScheduledFuture<?> deadline = timer;
    tunnel.connectFuture().addListener(t -> {
      if (deadline != null) {
        deadline.cancel(false);
      }
      if (t.isSuccess()) {
        // Gone if the proxy hung up with its answer, read before this listener was added: a closed channel's
        // pipeline is emptied. The connection's setup then sees the channel closed.
        if (ch.pipeline().context(DIAL_ERRORS) != null) {
          ch.pipeline().remove(DIAL_ERRORS);
        }
        dialed.complete(ch);
      } else if (proxy.secure() && TlsErrors.isTlsFailure(t.cause())) {
        dialed.completeExceptionally(proxyTlsFailed(t.cause(), proxy, request));
      } else {
        dialed.completeExceptionally(ErrorMapper.tunnelFailed(t.cause(), proxy, origin, request));
      }
    });
  }

  /** Completes {@code dialed} once TLS to an {@code https://} proxy that forwards requests is up. */
  private static void awaitProxyTls(Channel ch, ProxyServer proxy, Request request, CompletableFuture<Channel> dialed) {
    SslHandler tls = (SslHandler) ch.pipeline().get(PROXY_TLS);
    tls.handshakeFuture().addListener(f -> {
      if (f.isSuccess()) {
        dialed.complete(ch);
      } else {
        dialed.completeExceptionally(proxyTlsFailed(f.cause(), proxy, request));
        ch.close();
      }
    });
    ch.read(); // the handshake needs the proxy's answer, and the channel does not read by itself
  }

  /** The proxy's certificate refused, or its handshake failed: a TLS failure that names the proxy. */
  private static HttpException proxyTlsFailed(Throwable cause, ProxyServer proxy, Request request) {
    return TlsErrors.translate(cause, proxy.socketHost(), proxy.port(), proxy.proxyTls(), request);
  }

  private static ProxyHandler tunnelHandler(ProxyServer proxy, InetSocketAddress address, DialSettings.Target target) {
    ProxyHandler h = proxy.kind() == ProxyServer.Kind.HTTP
        ? new HttpTunnelHandler(address, proxy, target.host(), target.port(), MAX_CONNECT_HEAD)
        : (proxy.username() == null ? new Socks5ProxyHandler(address)
            : new Socks5ProxyHandler(address, proxy.username(), proxy.password()));
    h.setConnectTimeoutMillis(0); // the dial's own deadline covers it
    return h;
  }
}
