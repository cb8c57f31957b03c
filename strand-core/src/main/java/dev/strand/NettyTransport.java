package dev.strand;

import dev.strand.internal.connect.DialSettings;
import dev.strand.internal.netty.NettyEngine;
import dev.strand.spi.Transport;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The default transport: HTTP/1.1 and HTTP/2 (see {@link Builder#version}), and HTTP/3 over QUIC with the
 * {@code dev.strand:strand-http3} module, over TCP or TLS
 * ({@link Builder#tls}), directly or through a {@link Proxy} ({@link Builder#proxy}), on Netty, native epoll when available (else NIO), with a per-origin
 * connection pool whose acquire, release and hand-off cost O(1) whatever its size. An HTTP/1.1
 * connection carries one exchange at a time; an HTTP/2 connection as many as the server's
 * SETTINGS_MAX_CONCURRENT_STREAMS (at most 1000); beyond that the pool opens another connection
 * within {@link Limits#maxConnectionsPerHost()}, and requests queue once that is reached.
 *
 * <p>The system property {@code strand.io}, read when a transport is built, picks the I/O transport:
 * {@code epoll} (the default), {@code io_uring} (Netty's {@code netty-transport-native-io_uring}, an optional
 * dependency: put it on the class path, or the module path with {@code --add-modules}) or {@code nio}. What the
 * kernel or class path lacks falls back silently, io_uring to epoll to NIO; {@link ClientStats#transport()} says
 * which one runs.
 *
 * <p>{@link Client.Builder#build()} creates one from the builder's {@link Limits}; build one yourself
 * to share it between clients or to tune it.
 *
 * {@snippet :
 * NettyTransport transport = NettyTransport.builder().limits(Limits.ofConnections(500)).build();
 * }
 *
 * @implNote A connection returns to the pool as soon as the last byte of a response has arrived
 *     (the body is then held in memory, at most a few hundred KiB), so buffered reads never hold
 *     one. A {@link StreamingResponse} whose body is larger owns its connection until it is read to
 *     the end or closed: one that is neither leaks that connection, so always close it. Bodies are
 *     read with backpressure (auto-read off, one read at a time while the consumer keeps up). A
 *     request body that is not in memory is read by a virtual thread, 64 KiB at a time, never on an
 *     event loop; host names are resolved on a virtual thread too. An idempotent request that fails
 *     on a reused connection before any response byte arrived is sent once more on a new one.
 *     HTTP/2: each stream has a 1 MiB receive window (16 MiB per connection) and is read with the
 *     same backpressure, so a slow consumer holds back only its own stream. A stream reset by the
 *     server fails with {@link ProtocolException} naming the error code, and the connection stays
 *     in use; streams a GOAWAY or REFUSED_STREAM says were not processed are sent again on another
 *     connection, whatever the method. An idle HTTP/2 connection is probed with a PING after 30 s
 *     of silence and closed if the peer does not answer within another 30 s. {@code Expect:
 *     100-continue} is not waited for on HTTP/2: the body is sent at once.
 */
public final class NettyTransport implements Transport {
  private final NettyEngine engine;

  private NettyTransport(Builder b) {
    Proxy proxy = b.proxy == null ? Proxy.system() : b.proxy;
    this.engine = new NettyEngine(b.limits, b.ioThreads, b.maxHeaderSize, b.preferNative, b.tls, b.version, proxy.routes,
        b.unixSocket, new DialSettings(b.dns, b.attemptDelay, b.attemptTimeout, b.localAddress, b.connectTo));
  }

  /** A transport with default limits. */
  public static NettyTransport create() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public CompletableFuture<StreamingResponse> send(Request request) {
    return engine.send(request);
  }

  /**
   * {@inheritDoc}
   *
   * @implNote Netty's version-13 handshaker, with permessage-deflate offered (and the frames
   *     compressed when the server accepts it). Over TLS, ALPN offers only {@code http/1.1}, whatever
   *     the {@link Builder#version} policy. The connection is not pooled; {@link #close()} aborts it.
   */
  @Override
  public CompletableFuture<WebSocket> websocket(Request request, WebSocket.Listener listener, int maxMessageSize) {
    return engine.websocket(request, listener, maxMessageSize);
  }

  @Override
  public ClientStats stats() {
    return engine.stats();
  }

  @Override
  public void close() {
    engine.close();
  }

  /**
   * One event loop per two processors. A client's loops share the machine with the application's own
   * threads (the carriers of its virtual threads among them), and fewer loops each find more ready
   * connections per wake-up. On a 2-core machine (`/small`, client and server sharing it, two rounds)
   * one loop instead of two gave 0.98–1.25x the requests per second at 1 in flight, 1.00–1.45x at 10 and
   * 1.14–1.15x at 100, with 1–26 % less CPU per request.
   */
  private static final int DEFAULT_IO_THREADS = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);

  /** Settings of a {@link NettyTransport}. */
  public static final class Builder {
    private Limits limits = Limits.DEFAULT;
    private int ioThreads = DEFAULT_IO_THREADS;
    private int maxHeaderSize = 64 * 1024;
    private boolean preferNative = true;
    private Tls tls;
    // h2 where a TLS server agrees: one multiplexed connection per origin, as curl, OkHttp and the JDK client.
    private VersionPolicy version = VersionPolicy.HTTP_2;
    private Proxy proxy; // null: Proxy.system(), which a Unix socket overrides
    private Path unixSocket;
    private Dns dns = Dns.system();
    private Duration attemptDelay = DialSettings.DEFAULT_ATTEMPT_DELAY;
    private Duration attemptTimeout;
    private InetAddress localAddress;
    private final List<DialSettings.ConnectTo> connectTo = new ArrayList<>();

    private Builder() {}

    /**
     * The resolver that turns host names into addresses (default {@link Dns#system()}); see {@link Dns}. Proxy
     * names are resolved with it too; a name sent through a proxy's tunnel is resolved by the proxy.
     */
    public Builder dns(Dns dns) {
      this.dns = Objects.requireNonNull(dns, "dns");
      return this;
    }

    /**
     * How long one address of a name is tried alone before the next one is tried beside it (default 250 ms,
     * RFC 8305's "Connection Attempt Delay"). A name's addresses are tried in turn, IPv6 and IPv4
     * interleaved from the family the resolver put first; an attempt that fails starts the next at once;
     * the first connection up is kept and every other closed. The connect timeout bounds the whole race.
     *
     * {@snippet :
     * NettyTransport patient = NettyTransport.builder().connectAttemptDelay(Duration.ofMillis(500)).build();
     * }
     *
     * @throws IllegalArgumentException if negative
     */
    public Builder connectAttemptDelay(Duration delay) {
      if (delay.isNegative()) {
        throw new IllegalArgumentException("connectAttemptDelay must not be negative: " + delay);
      }
      this.attemptDelay = delay;
      return this;
    }

    /**
     * How long one address is tried before it counts as failed (default: as long as the connect timeout
     * allows). Shorter, it moves a name with many silent addresses along faster than the attempt delay
     * alone, since a failed attempt starts the next one at once.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Builder connectAttemptTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("connectAttemptTimeout must be positive: " + timeout);
      }
      this.attemptTimeout = timeout;
      return this;
    }

    /**
     * Connects from this local address (curl's {@code --interface}, aiohttp's {@code local_addr}); only the
     * server's addresses of the same family are tried. Default: the kernel picks.
     */
    public Builder localAddress(InetAddress address) {
      this.localAddress = Objects.requireNonNull(address, "address");
      return this;
    }

    /**
     * Connections for {@code host:port} go to {@code toHost:toPort} instead, as with curl's
     * {@code --connect-to HOST:PORT:TOHOST:TOPORT}; the URL still names the origin, for {@code Host}, TLS's
     * server name and certificate check, cookies and the pool. An empty {@code host} matches every host, a
     * {@code port} of 0 every port; an empty {@code toHost} or a {@code toPort} of 0 keeps that part. The
     * first matching rule wins.
     *
     * {@snippet :
     * NettyTransport canary = NettyTransport.builder().connectTo("api.example.com", 443, "10.0.0.9", 8443).build();
     * }
     */
    public Builder connectTo(String host, int port, String toHost, int toPort) {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(toHost, "toHost");
      if (port < 0 || port > 65535 || toPort < 0 || toPort > 65535) {
        throw new IllegalArgumentException("connectTo ports are 0 (any, or unchanged) to 65535: " + port + ", " + toPort);
      }
      String to = toHost.startsWith("[") && toHost.endsWith("]") ? toHost.substring(1, toHost.length() - 1) : toHost;
      connectTo.add(new DialSettings.ConnectTo(host.startsWith("[") && host.endsWith("]")
          ? host.substring(1, host.length() - 1) : host, port, to, toPort));
      return this;
    }

    /**
     * Connects to this Unix domain socket instead of the address of each request's host (default none:
     * TCP), as curl's {@code --unix-socket}: the URL still names the origin, for the {@code Host} field
     * and, over {@code https}, the TLS server name. For Docker's API and sidecars on the same machine.
     * HTTP/1.1, h2c by prior knowledge, TLS and WebSockets all run over it; a proxy cannot be combined with it.
     *
     * {@snippet :
     * Client docker = Client.builder().unixSocket(Path.of("/var/run/docker.sock")).build();
     * Response containers = docker.get("http://localhost/v1.43/containers/json");
     * }
     *
     * @implNote Netty's epoll domain-socket channel, or NIO's on JDK 16+ where epoll is unavailable.
     */
    public Builder unixSocket(Path socket) {
      this.unixSocket = Objects.requireNonNull(socket, "socket");
      return this;
    }

    /**
     * The proxy to connect through (default {@link Proxy#system()}: the JVM's proxy settings, direct
     * when none are set; the environment is not read unless asked, with {@link Proxy#fromEnvironment()};
     * {@link Proxy#none()} ignores the JVM's settings too). See {@link Proxy} for the precedence.
     *
     * @implNote Connections are pooled per target origin, whichever proxy they go through: the proxy
     *     depends only on the origin, so a tunnel never carries another origin's requests, and
     *     {@link NettyTransport#stats()} counts them under the target origin. Requests to a forwarding HTTP proxy
     *     are not shared between origins either: each origin has its own connections to the proxy.
     */
    public Builder proxy(Proxy proxy) {
      this.proxy = Objects.requireNonNull(proxy, "proxy (use Proxy.none() for none)");
      return this;
    }

    /**
     * TLS settings for {@code https} origins (default {@link Tls#system()}). A configured context is
     * built by {@link #build()}, which then fails with {@link IllegalArgumentException} for a missing
     * or unusable file; the default one is built on the first {@code https} request.
     */
    public Builder tls(Tls tls) {
      this.tls = Objects.requireNonNull(tls, "tls");
      return this;
    }

    /**
     * The HTTP version policy (default {@link VersionPolicy#HTTP_2}, as curl, OkHttp and the JDK's client
     * have it): {@link VersionPolicy#HTTP_2} offers h2 then http/1.1 through ALPN on {@code https}, speaks
     * HTTP/2 where the server picks h2 and HTTP/1.1 where it does not, and HTTP/1.1 in cleartext;
     * {@link VersionPolicy#HTTP_1_1} offers only http/1.1, the one-line opt-out
     * ({@code .version(VersionPolicy.HTTP_1_1)});
     * {@link VersionPolicy#HTTP_2_PRIOR_KNOWLEDGE} speaks HTTP/2 from the first byte, also in cleartext (h2c);
     * {@link VersionPolicy#HTTP_3_ONLY} speaks HTTP/3 over QUIC to {@code https} origins (curl's
     * {@code --http3-only}), {@link VersionPolicy#HTTP_3_FIRST} tries it first and falls back to TCP (curl's
     * {@code --http3}), and {@link VersionPolicy#HTTP_3_ALT_SVC} upgrades to it where {@code Alt-Svc} says
     * so, falling back to TCP. Each {@link Response#version()} says which {@link Version} was spoken.
     * The HTTP/3 policies need the {@code dev.strand:strand-http3} module: without it {@link #build()}
     * fails with {@link IllegalStateException}.
     *
     * @implNote HTTP/3: one QUIC connection carries as many requests as the server's initial
     *     bidirectional stream limit (at most 1000); each stream has a 1 MiB receive window (16 MiB per
     *     connection) and is read with the same backpressure as HTTP/2. The connect timeout bounds the
     *     QUIC handshake. Under {@link VersionPolicy#HTTP_3_FIRST} and {@link VersionPolicy#HTTP_3_ALT_SVC} a
     *     request waits at most 500 ms (or its connect timeout, if shorter) for a QUIC connection before it
     *     goes over TCP; a QUIC connection still coming up then serves later requests.
     */
    public Builder version(VersionPolicy version) {
      this.version = Objects.requireNonNull(version, "version");
      return this;
    }

    public Builder limits(Limits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /** Event-loop threads (default: half the number of processors, at least one). */
    public Builder ioThreads(int ioThreads) {
      if (ioThreads < 1) {
        throw new IllegalArgumentException("ioThreads must be >= 1: " + ioThreads);
      }
      this.ioThreads = ioThreads;
      return this;
    }

    /** Largest response header section accepted, in bytes (default 64 KiB); larger fails with ProtocolException. */
    public Builder maxHeaderSize(int bytes) {
      if (bytes < 1024) {
        throw new IllegalArgumentException("maxHeaderSize must be >= 1024: " + bytes);
      }
      this.maxHeaderSize = bytes;
      return this;
    }

    /** Use a native transport when available (default true: epoll, or io_uring if {@code -Dstrand.io=io_uring}); false forces NIO. */
    public Builder preferNative(boolean preferNative) {
      this.preferNative = preferNative;
      return this;
    }

    /**
     * @throws IllegalStateException if both {@link #unixSocket} and a {@link #proxy} other than
     *     {@link Proxy#none()} and {@link Proxy#system()} (the default, which the socket overrides) are set
     */
    public NettyTransport build() {
      if (unixSocket != null && proxy != null && proxy != Proxy.none() && proxy != Proxy.system()) {
        throw new IllegalStateException("unixSocket(" + unixSocket + ") and proxy(" + proxy + ") cannot be combined: "
            + "the socket is where every connection goes");
      }
      return new NettyTransport(this);
    }
  }
}
