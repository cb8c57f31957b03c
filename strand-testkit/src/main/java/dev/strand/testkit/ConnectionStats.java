package dev.strand.testkit;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts accepted and open connections, completed TLS handshakes and the responses {@code /delay} is holding
 * back; one shared instance sits first in every child pipeline. It also holds the server's other shared state, the {@link IdempotencyLedger}.
 */
@ChannelHandler.Sharable
final class ConnectionStats extends ChannelInboundHandlerAdapter {

    private final LongAdder accepted = new LongAdder();
    private final AtomicInteger open = new AtomicInteger();
    private final LongAdder tlsHandshakes = new LongAdder();
    /** Requests whose response a {@code /delay} is holding back: the requests this server has in hand. */
    private final AtomicInteger held = new AtomicInteger();
    private final IdempotencyLedger idempotency = new IdempotencyLedger();

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        accepted.increment();
        open.incrementAndGet();
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        open.decrementAndGet();
        super.channelInactive(ctx);
    }

    long accepted() {
        return accepted.sum();
    }

    int open() {
        return open.get();
    }

    void holding() {
        held.incrementAndGet();
    }

    void released() {
        held.decrementAndGet();
    }

    int held() {
        return held.get();
    }

    void tlsHandshakeCompleted() {
        tlsHandshakes.increment();
    }

    IdempotencyLedger idempotency() {
        return idempotency;
    }

    long tlsHandshakes() {
        return tlsHandshakes.sum();
    }

    /** Only the totals reset: open connections are still open. */
    void reset() {
        accepted.reset();
        tlsHandshakes.reset();
    }
}
