package dev.strand.testkit;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A TCP proxy on 127.0.0.1 that relays to a real server and, at random, breaks what it relays: a hostile
 * network or peer for tests and soaks, reproducible from a seed.
 *
 * <p>Each piece of a response that the proxy reads from the server (a "chunk": whatever one read returned)
 * draws at most one {@link Fault} with the configured probabilities: it is reset, delayed, truncated, or
 * followed by stray bytes. Each piece of a request read from the client may instead be answered by an
 * {@linkplain Fault#EARLY_CLOSE early close}. With {@link Builder#perConnection()} a connection draws its
 * fault once, when it opens, and suffers it at the first piece where it applies; the rest of it is relayed
 * as is. Connection {@code n} (in accept order) draws from its own {@code Random}, seeded from the seed and
 * {@code n}, so one connection's fate does not depend on how the others interleave.
 *
 * <p>Bounded: at most {@link Builder#maxConnections} connections at once (more are closed at accept and
 * counted as {@link #refused()}), delays of at most {@link Builder#delay} each, and a read from the server
 * waits while the client cannot take more. Every fault injected is counted ({@link #injected()}).
 *
 * {@snippet :
 * try (TestServer server = TestServer.start();
 *      FaultProxy proxy = FaultProxy.builder(server).seed(42).reset(0.01).strayBytes(0.02).build()) {
 *   client.get(proxy.url("/echo?id=7"));   // may fail with a typed exception, must never answer another request
 *   long resets = proxy.injected(FaultProxy.Fault.RESET);
 * }
 * }
 *
 * <p>Thread-safe. One NIO event-loop thread, a daemon.
 */
public final class FaultProxy implements AutoCloseable {

    /** What the proxy does to a connection. */
    public enum Fault {
        /** Abort the client's connection with a TCP RST (SO_LINGER 0), the chunk dropped. */
        RESET,
        /** Hold a chunk (and all after it) for a random time up to {@link Builder#delay}'s bound. */
        DELAY,
        /** Forward a random prefix of a chunk, possibly empty, then close (FIN). */
        TRUNCATE,
        /**
         * Append 1 to 64 bytes of garbage, or a whole fake HTTP/1.1 response, right after a chunk that ends a
         * complete response (only Content-Length and bodiless responses are followed; see
         * {@link ResponseBoundaries}). Chunks that end no response are relayed as is.
         */
        STRAY_BYTES,
        /** Close the client's connection (FIN) when a request arrives, before the server sees it. */
        EARLY_CLOSE
    }

    /** The body of every fake response {@link Fault#STRAY_BYTES} sends starts with this. */
    public static final String STRAY_BODY_PREFIX = "stray-response-";

    private final Settings settings;
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1,
            new DefaultThreadFactory("strand-fault-proxy", true), NioIoHandler.newFactory());
    private final ChannelGroup open = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final Channel server;
    private final Map<Fault, LongAdder> injected = new EnumMap<>(Fault.class);
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicInteger active = new AtomicInteger();

    private FaultProxy(Builder b) {
        this.settings = new Settings(b.upstream, b.seed, b.reset, b.delay, b.maxDelayMillis, b.truncate,
                b.strayBytes, b.earlyClose, b.perConnection);
        for (Fault f : Fault.values()) {
            injected.put(f, new LongAdder());
        }
        int maxConnections = b.maxConnections;
        try {
            this.server = new ServerBootstrap()
                    .group(group)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    // Nothing is read from the client before the server side is connected.
                    .childOption(ChannelOption.AUTO_READ, false)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            long n = accepted.getAndIncrement();
                            if (active.incrementAndGet() > maxConnections) {
                                active.decrementAndGet();
                                refused.incrementAndGet();
                                ch.close();
                                return;
                            }
                            open.add(ch);
                            ch.closeFuture().addListener(f -> active.decrementAndGet());
                            FaultyConnection.attach(ch, settings, connectionSeed(settings.seed(), n),
                                    FaultProxy.this::count);
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().channel();
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
            throw e;
        }
    }

    /** A proxy in front of {@code upstream}, which must speak HTTP/1.1 in cleartext for stray bytes to apply. */
    public static Builder builder(InetSocketAddress upstream) {
        return new Builder(upstream);
    }

    /** A proxy in front of a running testkit server (cleartext HTTP/1.1). */
    public static Builder builder(TestServer server) {
        return new Builder(new InetSocketAddress(server.host(), server.port()));
    }

    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** {@code http://127.0.0.1:PORT} followed by {@code pathAndQuery}. */
    public String url(String pathAndQuery) {
        return "http://127.0.0.1:" + port() + pathAndQuery;
    }

    /** How many times {@code fault} was injected so far. */
    public long injected(Fault fault) {
        return injected.get(fault).sum();
    }

    /** Every fault's count so far, in {@link Fault} order. */
    public Map<Fault, Long> injected() {
        Map<Fault, Long> out = new EnumMap<>(Fault.class);
        injected.forEach((f, n) -> out.put(f, n.sum()));
        return out;
    }

    /** Connections accepted from clients, refused ones included. */
    public long acceptedConnections() {
        return accepted.get();
    }

    /** Connections closed at accept because {@link Builder#maxConnections} were already open. */
    public long refused() {
        return refused.get();
    }

    /** Client connections open now. */
    public int openConnections() {
        return active.get();
    }

    /**
     * Connection {@code n}'s seed, scrambled (MurmurHash3's finalizer): {@code java.util.Random}'s first draws
     * from neighbouring seeds are nearly equal, so {@code seed + n} would give every connection the same fate.
     */
    static long connectionSeed(long seed, long n) {
        long z = seed + n * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return z ^ (z >>> 33);
    }

    private void count(Fault f) {
        injected.get(f).increment();
    }

    /** Closes the listening socket and every connection, and stops the event loop. */
    @Override
    public void close() {
        server.close().syncUninterruptibly();
        open.close().awaitUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Override
    public String toString() {
        return "FaultProxy[" + url("") + " -> " + settings.upstream() + ", injected " + injected() + "]";
    }

    /** The settings every connection reads. */
    record Settings(InetSocketAddress upstream, long seed, double reset, double delay, int maxDelayMillis,
            double truncate, double strayBytes, double earlyClose, boolean perConnection) {
    }

    /** Probabilities (each from 0 to 1, all 0 by default: a plain relay), bounds and the seed. */
    public static final class Builder {
        private final InetSocketAddress upstream;
        private long seed = 1;
        private double reset;
        private double delay;
        private int maxDelayMillis = 50;
        private double truncate;
        private double strayBytes;
        private double earlyClose;
        private boolean perConnection;
        private int maxConnections = 1024;

        private Builder(InetSocketAddress upstream) {
            this.upstream = Objects.requireNonNull(upstream, "upstream");
        }

        /** The seed of every random draw (default 1). */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** Probability of a {@link Fault#RESET} per response chunk (or per connection). */
        public Builder reset(double p) {
            this.reset = probability(p);
            return this;
        }

        /** Probability of a {@link Fault#DELAY} per response chunk, each delay from 1 to {@code maxMillis} ms. */
        public Builder delay(double p, int maxMillis) {
            if (maxMillis < 1) {
                throw new IllegalArgumentException("maxMillis must be >= 1: " + maxMillis);
            }
            this.delay = probability(p);
            this.maxDelayMillis = maxMillis;
            return this;
        }

        /** Probability of a {@link Fault#TRUNCATE} per response chunk. */
        public Builder truncate(double p) {
            this.truncate = probability(p);
            return this;
        }

        /** Probability of {@link Fault#STRAY_BYTES} per response chunk that ends a response. */
        public Builder strayBytes(double p) {
            this.strayBytes = probability(p);
            return this;
        }

        /** Probability of an {@link Fault#EARLY_CLOSE} per request chunk. */
        public Builder earlyClose(double p) {
            this.earlyClose = probability(p);
            return this;
        }

        /** Draw one fault per connection when it opens, instead of one per chunk. */
        public Builder perConnection() {
            this.perConnection = true;
            return this;
        }

        /** Client connections open at once (default 1024); more are closed as soon as accepted. */
        public Builder maxConnections(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("maxConnections must be >= 1: " + n);
            }
            this.maxConnections = n;
            return this;
        }

        /** Starts the proxy on an ephemeral port. */
        public FaultProxy build() {
            double sum = reset + delay + truncate + strayBytes;
            if (sum > 1 || earlyClose > 1 || (perConnection && sum + earlyClose > 1)) {
                throw new IllegalArgumentException("the probabilities drawn together add up to more than 1");
            }
            return new FaultProxy(this);
        }

        private static double probability(double p) {
            if (!(p >= 0 && p <= 1)) {
                throw new IllegalArgumentException("a probability is between 0 and 1: " + p);
            }
            return p;
        }
    }
}
