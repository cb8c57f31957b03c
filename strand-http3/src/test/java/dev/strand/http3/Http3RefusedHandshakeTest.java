package dev.strand.http3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.ConnectException;
import dev.strand.Timeout;
import dev.strand.VersionPolicy;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.tls.TestPki;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.quic.InsecureQuicTokenHandler;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A QUIC server that refuses the handshake and whose refusal never reaches the client: a typed failure
 * saying what happened, bounded, with nothing left in the pool. (A refusal that arrives is a TlsException
 * naming the alert: {@code internal.QuicClosesTest}.)
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http3RefusedHandshakeTest {
  private static final Duration DEADLINE = Duration.ofSeconds(10);

  /**
   * A QUIC server on 127.0.0.1 that refuses every handshake with TLS alert {@code alert}, as a CONNECTION_CLOSE
   * with crypto error 0x100 + alert and no reason phrase (RFC 9001 4.8), as quic-go and quiche send it. Netty's
   * own server cannot be made to: its handshake failures end the connection without sending the close.
   */
  private static final class RefusingServer implements AutoCloseable {
    final MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    final Channel channel;

    RefusingServer(int alert) throws InterruptedException {
      TestPki pki = TestPki.shared();
      QuicSslContext ssl = QuicSslContextBuilder.forServer(pki.server().key().toFile(), null,
          pki.server().cert().toFile()).applicationProtocols(Http3.supportedApplicationProtocols()).build();
      ChannelHandler codec = Http3.newQuicServerCodecBuilder().sslContext(ssl)
          .maxIdleTimeout(1, TimeUnit.SECONDS).initialMaxData(1 << 20).initialMaxStreamsBidirectional(10)
          .tokenHandler(InsecureQuicTokenHandler.INSTANCE).handler(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
              ((QuicChannel) ctx.channel()).close(false, 0x100 + alert, Unpooled.EMPTY_BUFFER);
            }
          }).build();
      channel = new Bootstrap().group(group).channel(NioDatagramChannel.class).handler(codec)
          .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    String url() {
      return "https://127.0.0.1:" + ((InetSocketAddress) channel.localAddress()).getPort() + "/small";
    }

    @Override
    public void close() {
      channel.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
    }
  }

  /**
   * Netty's server queues its close but never sends it before the handshake is done, so the client hears
   * nothing until QUIC's idle timeout: the failure says so, not just "QuicClosedChannelException".
   */
  @Test
  void aCloseThatNeverArrivesIsAConnectExceptionSayingSo() throws Exception {
    try (RefusingServer server = new RefusingServer(112);
        Client client = Http3Fixture.client(VersionPolicy.HTTP_3_ONLY, Timeout.of(Duration.ofSeconds(9)))) {
      ConnectException e = assertTimeoutPreemptively(DEADLINE,
          () -> assertThrows(ConnectException.class, () -> client.get(server.url())), "the client hung");
      assertEquals(ConnectException.class, e.getClass(), e.toString());
      assertTrue(e.getMessage().contains("the connection closed before the handshake completed, with no word from "
          + "the server"), e.getMessage());
      assertFalse(e.getMessage().contains("QuicClosedChannelException"), e.getMessage());
      assertEquals(0, client.stats().open(), client.stats().toString());
      assertEquals(0, client.stats().inUse(), client.stats().toString());
    }
  }
}
