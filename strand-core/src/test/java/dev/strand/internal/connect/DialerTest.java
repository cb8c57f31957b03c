package dev.strand.internal.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalIoHandler;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The hand-over of a dialled channel: its pipeline is built on its event loop, however fast the connect. */
class DialerTest {
  @Test
  void aChannelDialledBeforeTheCallerAskedIsStillHandedOverOnItsEventLoop() throws Exception {
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, LocalIoHandler.newFactory());
    try {
      Channel ch = new LocalChannel();
      group.register(ch).sync();
      // On loopback the connect can complete before the connector adds its action: that action then
      // ran on the connector's thread, raced the TLS handshake for the pipeline, and a request hung.
      CompletableFuture<Channel> dialed = CompletableFuture.completedFuture(ch);
      CompletableFuture<String> handedOver = new CompletableFuture<>();
      Dialer.whenDialed(dialed, (c, failure) -> handedOver.complete(
          (c.eventLoop().inEventLoop() ? "on its loop" : "on " + Thread.currentThread().getName())
              + (failure == null ? "" : ", with " + failure)));
      assertEquals("on its loop", handedOver.get(5, TimeUnit.SECONDS));
      ch.close().sync();
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
  }

  @Test
  void aFailureIsHandedOverWithoutAChannel() throws Exception {
    IOException refused = new IOException("refused");
    CompletableFuture<Throwable> seen = new CompletableFuture<>();
    Dialer.whenDialed(CompletableFuture.failedFuture(refused), (c, failure) -> {
      assertNull(c);
      seen.complete(failure);
    });
    assertSame(refused, seen.get(5, TimeUnit.SECONDS));
    assertTrue(seen.isDone());
  }
}
