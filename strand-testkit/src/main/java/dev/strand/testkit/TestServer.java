package dev.strand.testkit;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
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
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A fast loopback HTTP/1.1 server for tests and benchmarks, on Netty (epoll when available, else NIO).
 *
 * <p>Hot endpoints ({@code /small}, {@code /big}) write pre-encoded responses; large bodies stream with
 * backpressure; connections are kept alive unless the request says otherwise. The endpoints and what they
 * send are listed in the {@linkplain dev.strand.testkit package documentation}; {@link Payloads} has the bytes.
 *
 * <pre>{@code
 * try (TestServer server = TestServer.start()) {
 *     HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(server.url("/small"))).build(),
 *             BodyHandlers.ofString());
 * }
 * }</pre>
 *
 * <p>Thread-safe. Event-loop threads are daemon threads, so a server left open does not keep a JVM alive.
 */
public final class TestServer implements AutoCloseable {

    private static final int MAX_HEADER_SIZE = 64 * 1024;

    private final String host;
    private final EventLoopGroup group;
    private final Channel serverChannel;
    private final ConnectionStats stats = new ConnectionStats();
    private final String transport;
    private final int port;

    private TestServer(Builder b) {
        // Build the canned responses now rather than inside the first request someone times.
        Canned.warmUp();
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
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    // Room for a couple of 64 KiB stream pieces in flight before backpressure kicks in.
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                            new WriteBufferWaterMark(128 * 1024, 512 * 1024))
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline()
                                    .addLast(stats)
                                    .addLast(new HeadAwareResponseEncoder())
                                    .addLast(new HttpRequestDecoder(new HttpDecoderConfig()
                                            .setMaxInitialLineLength(16 * 1024)
                                            .setMaxHeaderSize(MAX_HEADER_SIZE)
                                            .setMaxChunkSize(64 * 1024)))
                                    .addLast(new HttpConnection(stats));
                        }
                    })
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
     * @return {@code http://HOST:PORT}, without a trailing slash
     */
    public URI baseUri() {
        String h = host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
        return URI.create("http://" + h + ":" + port);
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

    /** Sets {@link #acceptedConnections()} back to zero. */
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
        return "TestServer[" + baseUri() + ", " + transport + "]";
    }

    /**
     * Runs a server until the process is killed: {@code --host H} (default 127.0.0.1), {@code --port P}
     * (default 0, ephemeral), {@code --threads N} (default 1), {@code --nio} (never use epoll).
     * Netty's leak detection is off unless {@code -Dio.netty.leakDetection.level} says otherwise.
     *
     * @param args the options above
     */
    public static void main(String[] args) {
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            // A benchmark target should not spend time sampling its own buffers; tests set the level explicitly.
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        Builder b = builder();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--host" -> b.host(value(args, ++i, arg));
                case "--port" -> b.port(Integer.parseInt(value(args, ++i, arg)));
                case "--threads" -> b.ioThreads(Integer.parseInt(value(args, ++i, arg)));
                case "--nio" -> b.preferNio(true);
                case "-h", "--help" -> {
                    System.out.println("usage: TestServer [--host H] [--port P] [--threads N] [--nio]");
                    return;
                }
                default -> throw new IllegalArgumentException("unknown argument: " + arg);
            }
        }
        TestServer server = b.build();
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "strand-testkit-shutdown"));
        System.out.println("strand-testkit listening on " + server.baseUri() + " (" + server.transportName() + ")");
        server.serverChannel.closeFuture().awaitUninterruptibly();
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    /** Configures and starts a {@link TestServer}. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port;
        private int ioThreads = 1;
        private boolean nio;

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
         * Binds and starts the server.
         *
         * @return the server, already listening
         */
        public TestServer build() {
            return new TestServer(this);
        }
    }
}
