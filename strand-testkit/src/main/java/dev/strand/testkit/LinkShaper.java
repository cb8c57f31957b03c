package dev.strand.testkit;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TCP relay on 127.0.0.1 in front of a target address that behaves like a slower link: each
 * direction is delayed by half the round-trip time (plus optional jitter), capped at a rate, and
 * the whole link can be stalled and resumed. Byte order is kept in each direction; nothing blocks
 * an event loop (delays are timers, and a direction that has more queued than twice its
 * bandwidth-delay product, at least 1 MiB, stops reading until it drains).
 *
 * {@snippet :
 * try (TestServer server = TestServer.start();
 *      LinkShaper link = LinkShaper.builder(new InetSocketAddress(server.host(), server.port())).spec("rtt=50ms,rate=200mbit,jitter=2ms").build()) {
 *   client.get("http://127.0.0.1:" + link.port() + "/small");   // at least 50 ms more per round trip
 *   link.stall();                                                // a dead link, sockets still open
 *   link.resume();
 * }
 * }
 *
 * <p>The rate is a token bucket of one write (at most 16 KiB) per direction: a burst never exceeds
 * the rate by more than that. Jitter draws each piece's extra delay uniformly from
 * {@code [0, jitter]}; it never reorders bytes, it only makes later pieces wait for earlier ones.
 * The TCP handshake is not delayed (the kernel completes it with the relay before any code runs):
 * the first round trip a client sees is that of its first bytes. A close travels behind the bytes
 * sent before it; bytes still queued toward a peer that has closed are dropped. Thread-safe. One
 * NIO event-loop thread, a daemon.
 */
public final class LinkShaper implements AutoCloseable {
    private final InetSocketAddress target;
    private final long oneWayNanos;
    private final long jitterNanos;
    private final long bitsPerSecond;
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1,
            new DefaultThreadFactory("strand-link-shaper", true), NioIoHandler.newFactory());
    private final ChannelGroup open = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final Set<ShapedPipe> pipes = ConcurrentHashMap.newKeySet();
    private final SplittableRandom random;
    private final Channel server;
    private volatile boolean stalled;

    private LinkShaper(Builder b) {
        this.target = b.target;
        this.oneWayNanos = b.rtt.toNanos() / 2;
        this.jitterNanos = b.jitter.toNanos();
        this.bitsPerSecond = b.bitsPerSecond;
        this.random = new SplittableRandom(b.seed);
        try {
            this.server = new ServerBootstrap()
                    .group(group)
                    .channel(NioServerSocketChannel.class)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    // Nothing is read from the client before the target side is connected.
                    .childOption(ChannelOption.AUTO_READ, false)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            open.add(ch);
                            connect(ch);
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().channel();
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
            throw e;
        }
    }

    /** A link in front of {@code target}; by default it adds nothing (no delay, no cap). */
    public static Builder builder(InetSocketAddress target) {
        return new Builder(target);
    }

    private void connect(Channel client) {
        new Bootstrap().group(client.eventLoop()).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.AUTO_READ, false)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        open.add(ch);
                    }
                })
                .connect(target).addListener((ChannelFutureListener) f -> {
                    if (!f.isSuccess()) {
                        client.close();
                        return;
                    }
                    Channel upstream = f.channel();
                    ShapedPipe up = new ShapedPipe(this, client, upstream);
                    ShapedPipe down = new ShapedPipe(this, upstream, client);
                    pipes.add(up);
                    pipes.add(down);
                    client.closeFuture().addListener(c -> pipes.remove(up));
                    upstream.closeFuture().addListener(c -> pipes.remove(down));
                    client.pipeline().addLast(up);
                    upstream.pipeline().addLast(down);
                    client.read();
                    upstream.read();
                });
    }

    /** The extra delay of one piece: half the RTT plus this piece's jitter. Event loop only. */
    long delayNanos() {
        return oneWayNanos + (jitterNanos == 0 ? 0 : random.nextLong(jitterNanos + 1));
    }

    long bitsPerSecond() {
        return bitsPerSecond;
    }

    /** Bytes a direction may hold before it stops reading: twice the bandwidth-delay product, at least 1 MiB. */
    long queueLimit() {
        long bdp = bitsPerSecond == 0 ? 0 : (long) (bitsPerSecond / 8.0 * (oneWayNanos + jitterNanos) / 1e9);
        return Math.max(1 << 20, 2 * bdp);
    }

    boolean stalled() {
        return stalled;
    }

    /** The port clients connect to, on 127.0.0.1. */
    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** {@code 127.0.0.1:port()}. */
    public InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", port());
    }

    /**
     * Stops forwarding in both directions of every connection (new ones too) until {@link #resume()}:
     * bytes keep arriving and queue up (until the queue's limit stops reading), connections stay open.
     */
    public void stall() {
        stalled = true;
    }

    /** Forwards again what {@link #stall()} held, at the configured rate. */
    public void resume() {
        stalled = false;
        for (ShapedPipe p : List.copyOf(pipes)) {
            p.resumed();
        }
    }

    /** Closes the listening socket and every connection (queued bytes are dropped), and stops the event loop. */
    @Override
    public void close() {
        server.close().syncUninterruptibly();
        open.close().awaitUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Override
    public String toString() {
        return "LinkShaper[127.0.0.1:" + port() + " -> " + target + ", rtt=" + Duration.ofNanos(2 * oneWayNanos)
                + ", rate=" + (bitsPerSecond == 0 ? "unlimited" : bitsPerSecond + "bit/s")
                + ", jitter=" + Duration.ofNanos(jitterNanos) + (stalled ? ", stalled" : "") + "]";
    }

    /** The link's round-trip time, rate and jitter; all zero (a plain relay) by default. */
    public static final class Builder {
        private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(us|ms|s)");
        private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d+)?)([kmg]?)(bit|bps)?");

        private final InetSocketAddress target;
        private Duration rtt = Duration.ZERO;
        private Duration jitter = Duration.ZERO;
        private long bitsPerSecond;
        private long seed = 1;

        private Builder(InetSocketAddress target) {
            this.target = Objects.requireNonNull(target, "target");
        }

        /** The round trip the link adds: each direction is delayed by half of it. */
        public Builder rtt(Duration rtt) {
            if (rtt.isNegative()) {
                throw new IllegalArgumentException("rtt must not be negative: " + rtt);
            }
            this.rtt = rtt;
            return this;
        }

        /** Each direction's cap in bits per second; 0 (the default) for none. */
        public Builder rate(long bitsPerSecond) {
            if (bitsPerSecond < 0) {
                throw new IllegalArgumentException("rate must not be negative: " + bitsPerSecond);
            }
            this.bitsPerSecond = bitsPerSecond;
            return this;
        }

        /** Up to this much extra delay per piece, drawn uniformly (order is kept). */
        public Builder jitter(Duration jitter) {
            if (jitter.isNegative()) {
                throw new IllegalArgumentException("jitter must not be negative: " + jitter);
            }
            this.jitter = jitter;
            return this;
        }

        /** The seed of the jitter's draws (default 1), so that a run can be repeated. */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /**
         * Settings from a spec such as {@code "rtt=50ms,rate=200mbit,jitter=2ms"} (the bench's
         * {@code --link}): comma-separated {@code key=value}, keys {@code rtt}, {@code rate},
         * {@code jitter}; durations in {@code us}, {@code ms} or {@code s}; rates in bits per second with
         * an optional {@code k}, {@code m} or {@code g} (powers of 1000) and {@code bit} or {@code bps}.
         *
         * @throws IllegalArgumentException naming the part it cannot read
         */
        public Builder spec(String spec) {
            for (String part : spec.split(",")) {
                String p = part.strip().toLowerCase(Locale.ROOT);
                if (p.isEmpty()) {
                    continue;
                }
                int eq = p.indexOf('=');
                if (eq < 0) {
                    throw new IllegalArgumentException("link spec: expected key=value, got \"" + part + "\"");
                }
                String key = p.substring(0, eq).strip();
                String value = p.substring(eq + 1).strip();
                switch (key) {
                    case "rtt" -> rtt(duration(value));
                    case "jitter" -> jitter(duration(value));
                    case "rate" -> rate(rate(value));
                    default -> throw new IllegalArgumentException("link spec: unknown key \"" + key
                            + "\" (expected rtt, rate, jitter)");
                }
            }
            return this;
        }

        static Duration duration(String value) {
            Matcher m = DURATION.matcher(value);
            if (!m.matches()) {
                throw new IllegalArgumentException("link spec: \"" + value + "\" is not a duration such as 50ms");
            }
            double n = Double.parseDouble(m.group(1));
            double nanos = n * switch (m.group(2)) {
                case "us" -> 1e3;
                case "ms" -> 1e6;
                default -> 1e9;
            };
            return Duration.ofNanos(Math.round(nanos));
        }

        static long rate(String value) {
            Matcher m = RATE.matcher(value);
            if (!m.matches()) {
                throw new IllegalArgumentException("link spec: \"" + value + "\" is not a rate such as 200mbit");
            }
            double n = Double.parseDouble(m.group(1));
            double scale = switch (m.group(2)) {
                case "k" -> 1e3;
                case "m" -> 1e6;
                case "g" -> 1e9;
                default -> 1;
            };
            return Math.round(n * scale);
        }

        public LinkShaper build() {
            return new LinkShaper(this);
        }
    }
}
