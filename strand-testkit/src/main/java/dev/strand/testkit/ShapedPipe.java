package dev.strand.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * One direction of a {@link LinkShaper} connection: reads from {@code src}, holds each piece until
 * its delay has passed and the rate allows it, then writes it to {@code dst}. Both channels share
 * one event loop, on which every method here runs (so no locks).
 */
final class ShapedPipe extends ChannelInboundHandlerAdapter {
    /** Pieces are cut to this size so that the rate is kept at a finer grain than one read. */
    private static final int SLICE = 16 * 1024;

    /** A piece to forward at {@code due} (nanoTime), or the end of the stream when {@code buf} is null. */
    private record Piece(ByteBuf buf, long due) {}

    private final LinkShaper link;
    private final Channel src;
    private final Channel dst;
    private final ArrayDeque<Piece> queue = new ArrayDeque<>();
    private long queuedBytes;
    /** The last piece's due time: later pieces never go before it, whatever their jitter. */
    private long lastDue;
    /** When the rate allows the next byte out (nanoTime); the token bucket's state. */
    private long nextFree = Long.MIN_VALUE;
    private ScheduledFuture<?> timer;
    private boolean closed;

    ShapedPipe(LinkShaper link, Channel src, Channel dst) {
        this.link = link;
        this.src = src;
        this.dst = dst;
        // dst's writability decides when this pipe may write again.
        dst.pipeline().addLast(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelWritabilityChanged(ChannelHandlerContext ctx) {
                drain();
                ctx.fireChannelWritabilityChanged();
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                // Nobody left to deliver to: drop what is queued. The other side closes when the end of
                // its stream, queued behind its own bytes, reaches this one's peer.
                release();
                ctx.fireChannelInactive();
            }
        });
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf buf) || closed) {
            ReferenceCountUtil.release(msg);
            return;
        }
        long due = Math.max(lastDue, System.nanoTime() + link.delayNanos());
        lastDue = due;
        while (buf.readableBytes() > SLICE) {
            enqueue(new Piece(buf.readRetainedSlice(SLICE), due));
        }
        enqueue(new Piece(buf, due));
        drain();
    }

    private void enqueue(Piece p) {
        queue.add(p);
        queuedBytes += p.buf() == null ? 0 : p.buf().readableBytes();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (queuedBytes < link.queueLimit()) {
            src.read();
        } // else drain() asks for more once the queue is half empty
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        // The end of the stream travels as a piece: dst closes after the bytes before it, delayed as they are.
        if (!closed) {
            long due = Math.max(lastDue, System.nanoTime() + link.delayNanos());
            lastDue = due;
            enqueue(new Piece(null, due));
            drain();
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    /** Called by {@link LinkShaper#resume()} from any thread. */
    void resumed() {
        dst.eventLoop().execute(() -> {
            // What waited during the stall must not go out as one burst above the rate.
            nextFree = Math.max(nextFree, System.nanoTime());
            drain();
        });
    }

    /** Writes every piece that is due and allowed by the rate; schedules itself for the next one. */
    private void drain() {
        if (closed || link.stalled()) {
            return;
        }
        boolean wrote = false;
        while (!queue.isEmpty() && dst.isWritable()) {
            Piece head = queue.peek();
            long now = System.nanoTime();
            long at = Math.max(head.due(), nextFree);
            if (at > now) {
                schedule(at - now);
                break;
            }
            queue.poll();
            if (head.buf() == null) {
                dst.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
                closed = true;
                release();
                return;
            }
            int n = head.buf().readableBytes();
            queuedBytes -= n;
            if (link.bitsPerSecond() > 0) {
                // From the later of the previous slot and this piece's arrival: a late timer does not lower the rate.
                nextFree = Math.max(nextFree, head.due()) + n * 8_000_000_000L / link.bitsPerSecond();
            }
            dst.write(head.buf());
            wrote = true;
        }
        if (wrote) {
            dst.flush();
            if (queuedBytes < link.queueLimit() / 2 && src.isActive() && !src.config().isAutoRead()) {
                src.read();
            }
        }
    }

    private void schedule(long delayNanos) {
        if (timer != null && !timer.isDone()) {
            timer.cancel(false);
        }
        timer = dst.eventLoop().schedule(() -> {
            timer = null;
            drain();
        }, delayNanos, TimeUnit.NANOSECONDS);
    }

    private void release() {
        closed = true;
        if (timer != null) {
            timer.cancel(false);
        }
        for (Piece p : queue) {
            ReferenceCountUtil.release(p.buf());
        }
        queue.clear();
        queuedBytes = 0;
    }
}
