package dev.strand.internal.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On epoll the loop's own thread, idle, waits in the kernel for the loop's I/O: an async call that finds the
 * loop idle writes on its own thread and lets go without waking it, and the response wakes it.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class CallerDrivenLoopOwnThreadTest {

  @Test
  void anExchangeStartedOnAnIdleLoopIsLeftToTheResponseToWakeTheOwnThread() throws Exception {
    AtomicReference<Thread> own = new AtomicReference<>();
    ThreadFactory named = task -> {
      Thread t = Thread.ofPlatform().daemon().name("own-under-test").unstarted(task);
      own.set(t);
      return t;
    };
    CallerDrivenLoop.Group group = new CallerDrivenLoop.Group(1, named, EpollIoHandler.newFactory(), () -> false);
    CallerDrivenLoop loop = (CallerDrivenLoop) group.next();
    AtomicReference<Thread> reader = new AtomicReference<>();
    CountDownLatch read = new CountDownLatch(1);
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Channel channel = new Bootstrap().group(group).channel(EpollSocketChannel.class)
          .handler(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
              ReferenceCountUtil.release(msg);
              reader.set(Thread.currentThread());
              read.countDown();
            }
          })
          .connect(server.getLocalSocketAddress()).sync().channel();
      try (Socket peer = server.accept()) {
        awaitWatchingIo(own.get());
        long wakes = loop.ownWakes();

        // What an async call does on an idle loop: starts its exchange on its own thread, and lets go.
        CallerDrivenLoop.start(loop, () -> CallerDrivenLoop.began(loop));
        peer.getOutputStream().write(1); // the response
        assertTrue(read.await(5, TimeUnit.SECONDS), "the response was not read");
        assertEquals(own.get(), reader.get());
        assertEquals(wakes, loop.ownWakes(), "the own thread was woken, not left to the response");
        CallerDrivenLoop.ended(loop);
      }
      channel.close().sync();
    } finally {
      group.shutdownGracefully().sync();
    }
  }

  private static void awaitWatchingIo(Thread own) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!watchingIo(own)) {
      assertTrue(System.nanoTime() < end, "the own thread never waited for the loop's I/O: " + stack(own));
      Thread.sleep(10);
    }
  }

  /** Waiting in {@link OwnThreadWait}'s epoll watch, not running a pass of the loop. */
  private static boolean watchingIo(Thread own) {
    String stack = stack(own);
    return stack.contains("OwnThreadWait$EpollWatch.await") && !stack.contains("CallerDrivenLoop.pass");
  }

  private static String stack(Thread t) {
    return Arrays.stream(t.getStackTrace()).map(StackTraceElement::toString).collect(Collectors.joining(" < "));
  }
}
