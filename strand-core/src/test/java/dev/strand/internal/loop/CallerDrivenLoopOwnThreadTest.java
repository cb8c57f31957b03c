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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On epoll the loop's own thread, idle, waits in the kernel for the loop's I/O: an async call that finds no
 * thread running the loop writes on its own thread and lets go without waking it, and the response wakes it.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class CallerDrivenLoopOwnThreadTest {

  @Test
  void anExchangeStartedOnAnIdleLoopIsLeftToTheResponseToWakeTheOwnThread() throws Exception {
    try (IdleLoop idle = new IdleLoop()) {
      long wakes = idle.loop.ownWakes();

      // What an async call does on an idle loop: starts its exchange on its own thread, and lets go.
      CallerDrivenLoop.start(idle.loop, () -> CallerDrivenLoop.began(idle.loop), true);
      idle.respondAndAwaitTheRead();
      assertEquals(wakes, idle.loop.ownWakes(), "the own thread was woken, not left to the response");
      idle.end(1);
    }
  }

  @Test
  void anAsyncCallStartedWhileAnotherIsInFlightWritesOnItsOwnThreadToo() throws Exception {
    try (IdleLoop idle = new IdleLoop()) {
      idle.startOneAndAwaitWatchingIo();
      long wakes = idle.loop.ownWakes();

      // A second call while the first waits for its response: the own thread watches the loop's I/O, so the
      // caller writes this one too, rather than queueing it and waking the own thread to write it.
      AtomicReference<Thread> ranOn = new AtomicReference<>();
      CallerDrivenLoop.start(idle.loop, () -> {
        ranOn.set(Thread.currentThread());
        CallerDrivenLoop.began(idle.loop);
      }, true);
      assertEquals(Thread.currentThread(), ranOn.get(), "the call was queued for the loop's own thread");
      assertEquals(wakes, idle.loop.ownWakes(), "the own thread was woken to write it");
      idle.respondAndAwaitTheRead();
      idle.end(2);
    }
  }

  @Test
  void onAMultiplexedConnectionACallStartedWhileAnotherIsInFlightIsLeftToTheLoop() throws Exception {
    try (IdleLoop idle = new IdleLoop()) {
      idle.startOneAndAwaitWatchingIo();

      // Queued: the loop's driver writes the requests queued meanwhile together.
      CompletableFuture<Thread> ranOn = new CompletableFuture<>();
      CallerDrivenLoop.start(idle.loop, () -> {
        CallerDrivenLoop.began(idle.loop);
        ranOn.complete(Thread.currentThread());
      }, false);
      assertEquals(idle.own.get(), ranOn.get(5, TimeUnit.SECONDS));
      idle.respondAndAwaitTheRead();
      idle.end(2);
    }
  }

  /**
   * A wake-up already written is not written again until the own thread has returned from its wait: one queued
   * right after must still be written, or the task waits for the own thread's next look (100 ms later).
   */
  @Test
  void everyTaskQueuedWhileTheOwnThreadSleepsWakesItPromptly() throws Exception {
    try (IdleLoop idle = new IdleLoop()) {
      int tasks = 200;
      long start = System.nanoTime();
      for (int i = 0; i < tasks; i++) {
        CompletableFuture<Void> ran = new CompletableFuture<>();
        idle.loop.execute(() -> ran.complete(null));
        ran.get(5, TimeUnit.SECONDS);
      }
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      // A missed wake-up costs up to 100 ms: a few hundred would take many seconds.
      assertTrue(millis < 5_000, tasks + " tasks queued one after another took " + millis + " ms");
      assertTrue(idle.loop.ownWakes() > 0, "the own thread was never woken");
    }
  }

  /** An epoll loop of its own with one connection to a plain socket, its own thread waiting for the loop's I/O. */
  private static final class IdleLoop implements AutoCloseable {
    final AtomicReference<Thread> own = new AtomicReference<>();
    final CallerDrivenLoop.Group group;
    final CallerDrivenLoop loop;
    final AtomicReference<Thread> reader = new AtomicReference<>();
    final CountDownLatch read = new CountDownLatch(1);
    final ServerSocket server;
    final Channel channel;
    final Socket peer;

    IdleLoop() throws Exception {
      ThreadFactory named = task -> {
        Thread t = Thread.ofPlatform().daemon().name("own-under-test").unstarted(task);
        own.set(t);
        return t;
      };
      group = new CallerDrivenLoop.Group(1, named, EpollIoHandler.newFactory(), () -> false);
      loop = (CallerDrivenLoop) group.next();
      server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
      channel = new Bootstrap().group(group).channel(EpollSocketChannel.class)
          .handler(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
              ReferenceCountUtil.release(msg);
              reader.set(Thread.currentThread());
              read.countDown();
            }
          })
          .connect(server.getLocalSocketAddress()).sync().channel();
      peer = server.accept();
      awaitWatchingIo(own.get());
    }

    /** Starts an exchange as an async call on the idle loop does; returns once the own thread watches the I/O. */
    void startOneAndAwaitWatchingIo() throws InterruptedException {
      CallerDrivenLoop.start(loop, () -> CallerDrivenLoop.began(loop), true);
      awaitWatchingIo(own.get());
    }

    /** Ends {@code exchanges} exchanges started on the loop. */
    void end(int exchanges) {
      for (int i = 0; i < exchanges; i++) {
        CallerDrivenLoop.ended(loop);
      }
    }

    /** The peer's bytes, read by the loop's own thread. */
    void respondAndAwaitTheRead() throws Exception {
      peer.getOutputStream().write(1);
      assertTrue(read.await(5, TimeUnit.SECONDS), "the response was not read");
      assertEquals(own.get(), reader.get());
    }

    @Override
    public void close() throws Exception {
      try (server; peer) {
        channel.close().sync();
      } finally {
        group.shutdownGracefully().sync();
      }
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
