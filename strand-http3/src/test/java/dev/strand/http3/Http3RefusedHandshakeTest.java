package dev.strand.http3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.Timeout;
import dev.strand.TlsException;
import dev.strand.Version;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.tls.TestPki;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.quic.InsecureQuicTokenHandler;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * QUIC servers that refuse the handshake: the refusal is a {@link TlsException} naming the TLS alert and
 * what the server wanted, within the connect timeout, and nothing is left in the pool. Found against Caddy
 * (no default SNI) at 127.0.0.1: the client reported a bare QuicClosedChannelException, and with details a
 * NullPointerException from reading a CONNECTION_CLOSE without a reason phrase.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http3RefusedHandshakeTest {
  private static final Duration DEADLINE = Duration.ofSeconds(5);

  /** A QUIC server on 127.0.0.1 whose TLS is {@code ssl}; it never gets as far as a request. */
  private static final class RefusingServer implements AutoCloseable {
    final MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    final Channel channel;

    RefusingServer(QuicSslContext ssl) throws InterruptedException {
      ChannelHandler codec = Http3.newQuicServerCodecBuilder().sslContext(ssl)
          .maxIdleTimeout(5, TimeUnit.SECONDS).initialMaxData(1 << 20).initialMaxStreamsBidirectional(10)
          .tokenHandler(InsecureQuicTokenHandler.INSTANCE).handler(new ChannelInboundHandlerAdapter()).build();
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

  private static QuicSslContextBuilder serverTls(String... alpn) {
    TestPki pki = TestPki.shared();
    return QuicSslContextBuilder.forServer(pki.server().key().toFile(), null, pki.server().cert().toFile())
        .applicationProtocols(alpn);
  }

  private static TlsException refused(RefusingServer server) {
    try (Client client = Http3Fixture.client(Version.HTTP_3, Timeout.of(Duration.ofSeconds(3)))) {
      TlsException e = assertTimeoutPreemptively(DEADLINE,
          () -> assertThrows(TlsException.class, () -> client.get(server.url())), "the client hung");
      assertEquals(TlsException.class, e.getClass(), e.toString());
      assertFalse(e.getMessage().contains("NullPointerException") || e.getMessage().contains("QuicClosedChannel"),
          e.getMessage());
      assertEquals(0, client.stats().open(), client.stats().toString());
      assertEquals(0, client.stats().inUse(), client.stats().toString());
      return e;
    }
  }

  /** Caddy's case: the server has a certificate only for a name, and an IP address sends none. */
  @Test
  void aServerThatRequiresAServerNameNamesTheAlertAndWhyNoneWasSent() throws Exception {
    QuicSslContext named = serverTls(Http3.supportedApplicationProtocols()).build();
    try (RefusingServer server = new RefusingServer(QuicSslContextBuilder.buildForServerWithSni(
        name -> "localhost".equals(name) ? named : null))) {
      TlsException e = refused(server);
      assertTrue(e.getMessage().startsWith("TLS handshake with 127.0.0.1:"), e.getMessage());
      assertTrue(e.getMessage().contains("TLS alert "), e.getMessage());
      assertTrue(e.getMessage().contains("127.0.0.1 is an IP address"), e.getMessage());
    }
  }

  @Test
  void aServerWithoutH3InItsAlpnIsAProtocolRefusal() throws Exception {
    try (RefusingServer server = new RefusingServer(serverTls("hq-interop").build())) {
      TlsException e = refused(server);
      assertEquals(TlsException.Reason.PROTOCOL, e.reason(), e.getMessage());
      assertTrue(e.getMessage().contains("no_application_protocol (120)")
          && e.getMessage().contains("does not offer HTTP/3"), e.getMessage());
    }
  }
}
