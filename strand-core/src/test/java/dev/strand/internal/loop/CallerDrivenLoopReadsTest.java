package dev.strand.internal.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** What waits for the end of a pass's reads ({@link CallerDrivenLoop#whenReadsEnd}) runs after them, in that pass. */
@ExtendWith(NettyLeakDetectorExtension.class)
class CallerDrivenLoopReadsTest {
  @Test
  void aTaskHandedOverDuringAReadRunsWhenTheReadsEnd() throws Exception {
    CallerDrivenLoop.Group group =
        new CallerDrivenLoop.Group(1, Thread.ofPlatform().daemon().factory(), NioIoHandler.newFactory(), () -> true);
    List<String> seen = new CopyOnWriteArrayList<>();
    CountDownLatch ran = new CountDownLatch(1);
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Channel channel = new Bootstrap().group(group).channel(NioSocketChannel.class)
          .handler(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
              ReferenceCountUtil.release(msg);
              seen.add("read");
              boolean later = CallerDrivenLoop.whenReadsEnd(() -> {
                seen.add("after the reads");
                ran.countDown();
              });
              seen.add("handed over: " + later);
            }

            @Override
            public void channelReadComplete(ChannelHandlerContext ctx) {
              seen.add("read complete");
            }
          })
          .connect(server.getLocalSocketAddress()).sync().channel();
      try (Socket peer = server.accept()) {
        peer.getOutputStream().write(1);
        assertTrue(ran.await(5, TimeUnit.SECONDS), "ran: " + seen);
        // Before the peer closes: its close is read too, and ends in another "read complete".
        assertEquals(List.of("read", "handed over: true", "read complete", "after the reads"), seen);
      }
      assertFalse(CallerDrivenLoop.whenReadsEnd(() -> seen.add("outside a pass")), "outside the loop's reads");
      channel.close().sync();
    } finally {
      group.shutdownGracefully().sync();
    }
  }
}
