package dev.strand.testkit;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A fast loopback HTTP/1.1 and HTTP/2 server for tests and benchmarks, on Netty (epoll when available, else
 * NIO), in cleartext or over TLS.
 *
 * <p>Hot endpoints ({@code /small}, {@code /big}) write pre-encoded responses over HTTP/1.1; large bodies stream
 * with backpressure (and, over HTTP/2, within flow-control windows); connections are kept alive unless the
 * request says otherwise. The endpoints and what they send are listed in the
 * {@linkplain dev.strand.testkit package documentation}; {@link Payloads} has the bytes. HTTP/2 serves the same
 * endpoints, stream by stream.
 *
 * <pre>{@code
 * try (TestServer server = TestServer.start()) {
 *     HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(server.url("/small"))).build(),
 *             BodyHandlers.ofString());
 * }
 * }</pre>
 *
 * <p>HTTPS with h2 negotiated by ALPN (and HTTP/1.1 for clients that do not offer h2):
 * {@snippet :
 * TestPki pki = TestPki.generate(dir);
 * try (TestServer server = TestServer.builder()
 *         .tls(pki.server().cert(), pki.server().key())
 *         .http2(true)
 *         .build()) {
 *     URI base = server.baseUri(); // https://127.0.0.1:PORT; trust pki.ca().cert()
 * }
 * }
 * Without TLS, {@code http2(true)} serves h2c with prior knowledge: a connection that opens with the HTTP/2
 * preface speaks HTTP/2, any other speaks HTTP/1.1. ({@code Upgrade: h2c} is ignored, as RFC 9113 allows.)
 *
 * <p>Thread-safe. Event-loop threads are daemon threads, so a server left open does not keep a JVM alive.
 */
public final class TestServer implements AutoCloseable {

    /** Default SETTINGS_MAX_CONCURRENT_STREAMS. */
    public static final int DEFAULT_MAX_CONCURRENT_STREAMS = 100;

    private final String host;
    private final EventLoopGroup group;
    private final Channel serverChannel;
    private final ConnectionStats stats = new ConnectionStats();
    private final String transport;
    private final int port;
    private final boolean http2;
    // "jdk" or "openssl"; null without TLS.
    private final String tlsEngine;

    private TestServer(Builder b) {
        // Build the canned responses now rather than inside the first request someone times.
        Canned.warmUp();
        SslContext ssl = b.sslContext;
        if (ssl != null) {
            TlsContexts.check(ssl, b.http2);
        } else if (b.certPem != null) {
            ssl = TlsContexts.forServer(b.certPem, b.keyPem, b.clientCa, b.http2, TlsContexts.provider(b.sslProvider));
        }
        this.tlsEngine = ssl == null ? null : TlsContexts.engineName(ssl);
        this.http2 = b.http2;
        boolean epoll = !b.nio && Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channelType = epoll ? EpollServerSocketChannel.class
                : NioServerSocketChannel.class;
        this.transport = epoll ? "epoll" : "nio";
        this.host = b.host;
        this.group = new MultiThreadIoEventLoopGroup(b.ioThreads,
                new DefaultThreadFactory("strand-testkit", true), io);
        try {
            this.serverChannel = new ServerBootstrap()
                    .group(group)
                    .channel(channelType)
                    // A load of thousands of connections opens them at once; the kernel caps this at somaxconn.
                    .option(ChannelOption.SO_BACKLOG, 4096)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    // Room for a couple of 64 KiB stream pieces in flight before backpressure kicks in.
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                            new WriteBufferWaterMark(128 * 1024, 512 * 1024))
                    .childHandler(new ServerInitializer(stats, ssl, b.http2, b.maxConcurrentStreams))
                    .bind(b.host, b.port)
                    .syncUninterruptibly()
                    .channel();
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
            throw e;
        }
        this.port = ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /**
     * Starts a server on 127.0.0.1, on an ephemeral port, with one event-loop thread.
     *
     * @return the listening server; close it when done
     */
    public static TestServer start() {
        return builder().build();
    }

    /**
     * A builder for a server with another host, port or thread count.
     *
     * @return a builder with the defaults of {@link #start()}
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The host the server listens on.
     *
     * @return the host as given to the builder, {@code 127.0.0.1} by default
     */
    public String host() {
        return host;
    }

    /**
     * The port the server listens on.
     *
     * @return the bound port (the actual one when the builder asked for 0)
     */
    public int port() {
        return port;
    }

    /**
     * The server's base URI.
     *
     * @return {@code http://HOST:PORT}, or {@code https://HOST:PORT} with TLS, without a trailing slash
     */
    public URI baseUri() {
        String h = host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
        return URI.create((isTls() ? "https://" : "http://") + h + ":" + port);
    }

    /**
     * Whether connections use TLS.
     *
     * @return true when the builder was given a certificate or an {@link SslContext}
     */
    public boolean isTls() {
        return tlsEngine != null;
    }

    /**
     * Whether HTTP/2 is served (beside HTTP/1.1, which always is).
     *
     * @return true when built with {@code http2(true)}: h2 by ALPN over TLS, h2c with prior knowledge without
     */
    public boolean isHttp2() {
        return http2;
    }

    /**
     * An absolute URL on this server.
     *
     * @param pathAndQuery e.g. {@code "/small"} or {@code "/drip?bytes=5"}
     * @return the base URI followed by {@code pathAndQuery}
     */
    public String url(String pathAndQuery) {
        return baseUri() + (pathAndQuery.startsWith("/") ? pathAndQuery : "/" + pathAndQuery);
    }

    /**
     * TCP connections accepted since start or the last {@link #resetStats()}. Counted when the connection
     * becomes active on the server, which can trail the client's connect by a moment.
     *
     * @return the number of connections accepted
     */
    public long acceptedConnections() {
        return stats.accepted();
    }

    /**
     * Connections open right now.
     *
     * @return the number of open connections
     */
    public int openConnections() {
        return stats.open();
    }

    /**
     * TLS handshakes completed successfully since start or the last {@link #resetStats()}; failed ones (say, a
     * client without the required certificate) do not count. A resumed session counts as a handshake.
     *
     * @return the number of completed handshakes; 0 without TLS
     */
    public long tlsHandshakes() {
        return stats.tlsHandshakes();
    }

    /**
     * The keys {@code /idempotent} has seen and what became of each request.
     *
     * @return this server's ledger
     */
    public IdempotencyLedger idempotency() {
        return stats.idempotency();
    }

    /** Sets {@link #acceptedConnections()} and {@link #tlsHandshakes()} back to zero. */
    public void resetStats() {
        stats.reset();
    }

    /**
     * The Netty transport in use.
     *
     * @return {@code "epoll"} or {@code "nio"}
     */
    public String transportName() {
        return transport;
    }

    /** Stops listening, closes every connection and waits for the event loops to terminate. Idempotent. */
    @Override
    public void close() {
        serverChannel.close().awaitUninterruptibly();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    @Override
    public String toString() {
        return "TestServer[" + baseUri() + ", " + description() + "]";
    }

    /** e.g. {@code "epoll"}, {@code "epoll, h2c"}, {@code "nio, TLS openssl, h2"}. */
    String description() {
        String d = transport;
        if (tlsEngine != null) {
            d += ", TLS " + tlsEngine;
        }
        if (http2) {
            d += tlsEngine != null ? ", h2" : ", h2c";
        }
        return d;
    }

    /** Blocks until the server channel closes. */
    void awaitClose() {
        serverChannel.closeFuture().awaitUninterruptibly();
    }

    /**
     * Runs a server until the process is killed. Options: {@code --host H} (default 127.0.0.1), {@code --port P}
     * (default 0, ephemeral), {@code --threads N} (default 1), {@code --nio} (never use epoll),
     * {@code --tls-cert FILE --tls-key FILE} (PEM chain, PKCS#8 PEM key), {@code --self-signed-dir DIR}
     * (generate a {@link dev.strand.testkit.tls.TestPki} into DIR, serve its localhost/127.0.0.1 certificate and
     * print the CA's path), {@code --client-ca FILE} (require client certificates), {@code --ssl-provider
     * jdk|openssl}, {@code --http2}, {@code --max-concurrent-streams N}.
     * Netty's leak detection is off unless {@code -Dio.netty.leakDetection.level} says otherwise.
     *
     * @param args the options above
     */
    public static void main(String[] args) {
        ServerCommand.run(args);
    }

    /** Configures and starts a {@link TestServer}. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port;
        private int ioThreads = 1;
        private boolean nio;
        private Path certPem;
        private Path keyPem;
        private SslContext sslContext;
        private Path clientCa;
        private String sslProvider;
        private boolean http2;
        private int maxConcurrentStreams = DEFAULT_MAX_CONCURRENT_STREAMS;

        private Builder() {
        }

        /**
         * The address to bind.
         *
         * @param host a host name or IP literal; default {@code 127.0.0.1}
         * @return this builder
         */
        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /**
         * The port to bind.
         *
         * @param port 0 to 65535; default 0, an ephemeral port (see {@link TestServer#port()})
         * @return this builder
         */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port out of range: " + port);
            }
            this.port = port;
            return this;
        }

        /**
         * Event-loop threads serving accept and I/O.
         *
         * @param ioThreads at least 1; default 1
         * @return this builder
         */
        public Builder ioThreads(int ioThreads) {
            if (ioThreads < 1) {
                throw new IllegalArgumentException("ioThreads < 1: " + ioThreads);
            }
            this.ioThreads = ioThreads;
            return this;
        }

        /**
         * Use the NIO transport even where epoll is available, to test both.
         *
         * @param nio true for NIO; default false (epoll when available)
         * @return this builder
         */
        public Builder preferNio(boolean nio) {
            this.nio = nio;
            return this;
        }

        /**
         * Serve TLS with this certificate and key, read when the server is built. Replaces an earlier
         * {@link #tls(SslContext)}.
         *
         * @param certPem the certificate chain, PEM, server certificate first
         * @param keyPem its private key, PEM, PKCS#8 ({@code BEGIN PRIVATE KEY})
         * @return this builder
         */
        public Builder tls(Path certPem, Path keyPem) {
            this.certPem = Objects.requireNonNull(certPem, "certPem");
            this.keyPem = Objects.requireNonNull(keyPem, "keyPem");
            this.sslContext = null;
            return this;
        }

        /**
         * Serve TLS with a ready context, for settings the other methods do not offer. Its ALPN must offer
         * {@code h2} (and should offer {@code http/1.1}) exactly when {@link #http2(boolean)} is on; client
         * authentication and the engine
         * are its business, so {@link #requireClientAuth} and {@link #sslProvider} do not combine with it.
         * Replaces an earlier {@link #tls(Path, Path)}.
         *
         * @param context a server context
         * @return this builder
         */
        public Builder tls(SslContext context) {
            this.sslContext = Objects.requireNonNull(context, "context");
            this.certPem = null;
            this.keyPem = null;
            return this;
        }

        /**
         * Mutual TLS: the handshake fails unless the client presents a certificate issued by this CA. Needs
         * {@link #tls(Path, Path)}.
         *
         * @param caPem the CA certificate(s) to trust for client certificates, PEM
         * @return this builder
         */
        public Builder requireClientAuth(Path caPem) {
            this.clientCa = Objects.requireNonNull(caPem, "caPem");
            return this;
        }

        /**
         * The TLS engine for {@link #tls(Path, Path)}: {@code "jdk"} (the default) or {@code "openssl"}
         * (BoringSSL from netty-tcnative-boringssl-static, an optional dependency: when it cannot be loaded the
         * server logs a warning and uses the JDK's; {@link TestServer#toString()} names the engine in use).
         *
         * @param provider {@code "jdk"} or {@code "openssl"}
         * @return this builder
         */
        public Builder sslProvider(String provider) {
            this.sslProvider = TlsContexts.checkProvider(Objects.requireNonNull(provider, "provider"));
            return this;
        }

        /**
         * Serve HTTP/2 as well as HTTP/1.1: over TLS, ALPN offers {@code h2} and {@code http/1.1}; in
         * cleartext, a connection that opens with the HTTP/2 preface (prior knowledge) speaks h2c.
         *
         * @param http2 default false (HTTP/1.1 only)
         * @return this builder
         */
        public Builder http2(boolean http2) {
            this.http2 = http2;
            return this;
        }

        /**
         * SETTINGS_MAX_CONCURRENT_STREAMS the server advertises (and enforces, refusing streams beyond it).
         *
         * @param maxConcurrentStreams at least 0; default {@value TestServer#DEFAULT_MAX_CONCURRENT_STREAMS}
         * @return this builder
         */
        public Builder maxConcurrentStreams(int maxConcurrentStreams) {
            if (maxConcurrentStreams < 0) {
                throw new IllegalArgumentException("maxConcurrentStreams < 0: " + maxConcurrentStreams);
            }
            this.maxConcurrentStreams = maxConcurrentStreams;
            return this;
        }

        /**
         * Binds and starts the server.
         *
         * @return the server, already listening
         * @throws IllegalStateException if {@link #requireClientAuth} or {@link #sslProvider} is set without
         *         {@link #tls(Path, Path)}
         * @throws IllegalArgumentException if a given {@link SslContext} cannot serve as configured
         * @throws java.io.UncheckedIOException if the certificate or key cannot be read
         */
        public TestServer build() {
            if (certPem == null && (clientCa != null || sslProvider != null)) {
                throw new IllegalStateException("requireClientAuth and sslProvider need tls(certPem, keyPem)");
            }
            return new TestServer(this);
        }
    }
}
