package dev.strand.testkit;

import dev.strand.testkit.FaultProxy.Fault;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One client connection of a {@link FaultProxy} and its connection to the server: relays both ways and
 * injects the faults it draws. Everything runs on the client channel's event loop (the server side shares
 * it), so the state needs no locks.
 */
final class FaultyConnection {

    private final Channel client;
    private final FaultProxy.Settings settings;
    private final Random random;
    private final Consumer<Fault> counter;
    private final ResponseBoundaries boundaries = new ResponseBoundaries();
    // Response chunks read from the server and not yet forwarded: only while a delay holds them.
    private final ArrayDeque<ByteBuf> toClient = new ArrayDeque<>();
    // The chunk a delay holds; released by whoever ends the connection, should that come first.
    private ByteBuf held;
    private Channel server;
    private Fault armed; // per-connection mode: the fault still to inject
    private boolean paused;
    private boolean serverDone;
    private boolean finished;

    private FaultyConnection(Channel client, FaultProxy.Settings settings, long seed, Consumer<Fault> counter) {
        this.client = client;
        this.settings = settings;
        this.random = new Random(seed);
        this.counter = counter;
        if (settings.perConnection()) {
            armed = drawFault(true);
        }
    }

    /** Relays {@code client} (not yet reading) through a new connection to the server. */
    static void attach(Channel client, FaultProxy.Settings settings, long seed, Consumer<Fault> counter) {
        FaultyConnection c = new FaultyConnection(client, settings, seed, counter);
        client.pipeline().addLast(new ClientSide(c));
        new Bootstrap().group(client.eventLoop()).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ServerSide(c))
                .connect(settings.upstream())
                .addListener((ChannelFuture f) -> {
                    if (!f.isSuccess()) {
                        client.close();
                        return;
                    }
                    c.server = f.channel();
                    if (c.finished) {
                        c.server.close();
                    } else {
                        client.config().setAutoRead(true);
                    }
                });
    }

    private void fromClient(ByteBuf request) {
        if (finished || server == null) {
            request.release();
            return;
        }
        boolean close = settings.perConnection() ? armed == Fault.EARLY_CLOSE
                : settings.earlyClose() > 0 && random.nextDouble() < settings.earlyClose();
        if (close) {
            armed = null;
            request.release();
            counter.accept(Fault.EARLY_CLOSE);
            finish();
            return;
        }
        server.writeAndFlush(request);
        client.config().setAutoRead(server.isWritable());
    }

    private void fromServer(ByteBuf response) {
        if (finished) {
            response.release();
            return;
        }
        toClient.add(response);
        drain();
    }

    private void drain() {
        while (!paused && !finished && !toClient.isEmpty()) {
            ByteBuf chunk = toClient.poll();
            Fault f = settings.perConnection() ? takeArmed() : drawFault(false);
            if (f == null) {
                forward(chunk, false);
                continue;
            }
            switch (f) {
                case RESET -> {
                    chunk.release();
                    counter.accept(f);
                    reset();
                }
                case TRUNCATE -> {
                    int keep = chunk.readableBytes() == 0 ? 0 : random.nextInt(chunk.readableBytes());
                    client.write(chunk.retainedSlice(chunk.readerIndex(), keep));
                    chunk.release();
                    counter.accept(f);
                    finish();
                }
                case DELAY -> {
                    counter.accept(f);
                    paused = true;
                    held = chunk;
                    client.eventLoop().schedule(() -> {
                        paused = false;
                        ByteBuf h = held;
                        held = null;
                        if (h != null) {
                            forward(h, false);
                        }
                        drain();
                    }, 1 + random.nextInt(settings.maxDelayMillis()), TimeUnit.MILLISECONDS);
                }
                case STRAY_BYTES -> forward(chunk, true);
                case EARLY_CLOSE -> throw new AssertionError("drawn for requests only");
            }
        }
        if (!paused && !finished && toClient.isEmpty() && serverDone) {
            finish();
        }
        updateServerReading();
    }

    private void forward(ByteBuf chunk, boolean stray) {
        boolean endsResponse = boundaries.endsResponse(chunk);
        if (stray && endsResponse) {
            counter.accept(Fault.STRAY_BYTES);
            client.writeAndFlush(Unpooled.wrappedBuffer(chunk, strayBytes()));
            return;
        }
        if (stray && settings.perConnection()) {
            armed = Fault.STRAY_BYTES; // not a response's end: keep it for one
        }
        client.writeAndFlush(chunk);
    }

    /** Garbage, or a plausible whole response that answers nothing the client asked. */
    private ByteBuf strayBytes() {
        if (random.nextBoolean()) {
            byte[] junk = new byte[1 + random.nextInt(64)];
            random.nextBytes(junk);
            return Unpooled.wrappedBuffer(junk);
        }
        String body = FaultProxy.STRAY_BODY_PREFIX + random.nextInt(1_000_000);
        return Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: "
                + body.length() + "\r\n\r\n" + body, StandardCharsets.US_ASCII);
    }

    /** One draw among the response faults, and early close too when {@code withEarlyClose}; null for none. */
    private Fault drawFault(boolean withEarlyClose) {
        double r = random.nextDouble();
        double[] p = {settings.reset(), settings.delay(), settings.truncate(), settings.strayBytes(),
                withEarlyClose ? settings.earlyClose() : 0};
        Fault[] faults = {Fault.RESET, Fault.DELAY, Fault.TRUNCATE, Fault.STRAY_BYTES, Fault.EARLY_CLOSE};
        for (int i = 0; i < p.length; i++) {
            if (r < p[i]) {
                return faults[i];
            }
            r -= p[i];
        }
        return null;
    }

    private Fault takeArmed() {
        Fault f = armed;
        if (f == Fault.EARLY_CLOSE) {
            return null; // waits for a request
        }
        armed = null;
        return f;
    }

    private void updateServerReading() {
        if (server != null) {
            server.config().setAutoRead(!finished && !paused && client.isWritable());
        }
    }

    /** RST to the client: SO_LINGER 0 makes close() abort the connection. */
    private void reset() {
        finished = true;
        releaseQueued();
        if (client.isOpen()) {
            client.config().setOption(ChannelOption.SO_LINGER, 0);
            client.close();
        }
        closeServer();
    }

    /** FIN to the client once what was written is flushed. */
    private void finish() {
        finished = true;
        releaseQueued();
        client.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        closeServer();
    }

    private void clientClosed() {
        finished = true;
        releaseQueued();
        closeServer();
    }

    private void serverClosed() {
        serverDone = true;
        drain();
    }

    private void closeServer() {
        if (server != null) {
            server.close();
        }
    }

    private void releaseQueued() {
        if (held != null) {
            held.release();
            held = null;
        }
        ByteBuf b;
        while ((b = toClient.poll()) != null) {
            b.release();
        }
    }

    private static final class ClientSide extends ChannelInboundHandlerAdapter {
        private final FaultyConnection c;

        ClientSide(FaultyConnection c) {
            this.c = c;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            c.fromClient((ByteBuf) msg);
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            c.updateServerReading();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            c.clientClosed();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close(); // a client that resets: channelInactive cleans up
        }
    }

    private static final class ServerSide extends ChannelInboundHandlerAdapter {
        private final FaultyConnection c;

        ServerSide(FaultyConnection c) {
            this.c = c;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            c.fromServer((ByteBuf) msg);
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (!c.finished) {
                c.client.config().setAutoRead(ctx.channel().isWritable());
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            c.serverClosed();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
