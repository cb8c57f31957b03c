package dev.strand.http3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.strand.Client;
import dev.strand.ConnectTimeoutException;
import dev.strand.ClientStats;
import dev.strand.HttpException;
import dev.strand.PoolTimeoutException;
import dev.strand.ProtocolException;
import dev.strand.Response;
import dev.strand.Timeout;
import dev.strand.VersionPolicy;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.tls.TestPki;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.quic.InsecureQuicTokenHandler;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.handler.codec.quic.QuicStreamType;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * HTTP/3 servers that break RFC 9114, written as raw QUIC streams: the server's control stream holds an
 * empty SETTINGS, and each request stream is answered with the case's exact bytes and a FIN. Each case is
 * the exact exception type with a message naming the problem (or the response), within its deadline, and
 * the pool has nothing in use afterwards.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http3HostileTest {
  private static final Duration DEADLINE = Duration.ofSeconds(5);
  private static final Timeout TIMEOUT = Timeout.of(Duration.ofSeconds(1));

  private static final AttributeKey<QuicStreamChannel> CONTROL = AttributeKey.valueOf("h3-control");

  /**
   * A QUIC server speaking "h3" that answers every request stream with {@code answer}, after writing
   * {@code control} (more frames, such as GOAWAY) on its control stream.
   */
  private static final class RawH3Server implements AutoCloseable {
    final MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    final Channel channel;

    RawH3Server(byte[] answer, long maxStreams, byte[] control) throws Exception {
      TestPki pki = TestPki.shared();
      QuicSslContext ssl = QuicSslContextBuilder.forServer(pki.server().key().toFile(), null,
          pki.server().cert().toFile()).applicationProtocols(Http3.supportedApplicationProtocols()).build();
      var codec = Http3.newQuicServerCodecBuilder().sslContext(ssl).maxIdleTimeout(5, TimeUnit.SECONDS)
          .initialMaxData(1 << 20).initialMaxStreamDataBidirectionalLocal(1 << 16)
          .initialMaxStreamDataBidirectionalRemote(1 << 16).initialMaxStreamsBidirectional(maxStreams)
          .tokenHandler(InsecureQuicTokenHandler.INSTANCE)
          .handler(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
              // The control stream: its type (0x00), then SETTINGS with no settings.
              ((QuicChannel) ctx.channel()).createStream(QuicStreamType.UNIDIRECTIONAL, new ChannelInboundHandlerAdapter())
                  .addListener(f -> {
                    if (f.isSuccess()) {
                      ctx.channel().attr(CONTROL).set((QuicStreamChannel) f.getNow());
                      ((QuicStreamChannel) f.getNow()).writeAndFlush(Unpooled.wrappedBuffer(new byte[] {0x00, 0x04, 0x00}));
                    }
                  });
              ctx.fireChannelActive();
            }
          })
          .streamOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
          .streamHandler(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
              ReferenceCountUtil.release(msg); // the request, or the client's control and QPACK streams
            }

            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
              QuicStreamChannel stream = (QuicStreamChannel) ctx.channel();
              if (evt instanceof ChannelInputShutdownEvent && stream.type() == QuicStreamType.BIDIRECTIONAL) {
                QuicStreamChannel controlStream = stream.parent().attr(CONTROL).get();
                if (control.length > 0 && controlStream != null) {
                  controlStream.writeAndFlush(Unpooled.wrappedBuffer(control));
                }
                stream.writeAndFlush(Unpooled.wrappedBuffer(answer)).addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
              }
              ReferenceCountUtil.release(evt);
            }

            @Override
            public boolean isSharable() {
              return true;
            }
          })
          .build();
      channel = new Bootstrap().group(group).channel(NioDatagramChannel.class).handler(codec)
          .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    String url() {
      return "https://127.0.0.1:" + ((InetSocketAddress) channel.localAddress()).getPort() + "/";
    }

    @Override
    public void close() {
      channel.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
    }
  }

  // ---- frames (RFC 9114 7.1): type and length as QUIC varints, here always one byte each ----

  private static byte[] frame(int type, byte[] payload) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(type);
    out.write(payload.length);
    out.writeBytes(payload);
    return out.toByteArray();
  }

  /** HEADERS with ":status 200" from QPACK's static table (index 25), no dynamic table. */
  private static byte[] status200() {
    return frame(0x01, new byte[] {0x00, 0x00, (byte) (0xC0 | 25)});
  }

  private static byte[] data(String s) {
    return frame(0x00, s.getBytes(StandardCharsets.US_ASCII));
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  static Stream<Arguments> answers() {
    return Stream.of(
        Arguments.of("well-formed, as a baseline", concat(status200(), data("hi")), null, null),
        Arguments.of("DATA before HEADERS", data("hi"), ProtocolException.class, "H3_FRAME_UNEXPECTED"),
        Arguments.of("a DATA frame cut short by the FIN", concat(status200(), new byte[] {0x00, 0x10, 'h', 'i'}),
            ProtocolException.class, "H3_FRAME_ERROR: the stream ended inside a frame, 14 bytes of its payload missing"),
        Arguments.of("a FIN inside a frame's length", concat(status200(), data("hi"), new byte[] {0x00, 0x40}),
            ProtocolException.class, "H3_FRAME_ERROR"),
        Arguments.of("SETTINGS on a request stream", concat(frame(0x04, new byte[0]), status200(), data("hi")),
            ProtocolException.class, "H3_FRAME_UNEXPECTED"),
        Arguments.of("an HTTP/2 frame type (PRIORITY, reserved)", concat(frame(0x02, new byte[] {0}), status200(),
            data("hi")), ProtocolException.class, "Reserved type for HTTP/2"),
        Arguments.of("a static table index past its end", frame(0x01, new byte[] {0x00, 0x00, (byte) 0xFF, 0x25}),
            ProtocolException.class, "QPACK_DECOMPRESSION_FAILED"),
        Arguments.of("no :status", frame(0x01, new byte[] {0x00, 0x00, (byte) (0xC0 | 4)}), ProtocolException.class,
            "malformed: Not all mandatory pseudo-headers"),
        Arguments.of("a FIN with no answer at all", new byte[0], ProtocolException.class,
            "without a response"));
  }

  @ParameterizedTest(name = "answer: {0}")
  @MethodSource("answers")
  void answer(String name, byte[] answer, Class<? extends HttpException> type, String fragment) throws Exception {
    check(answer, 100, new byte[0], type, fragment);
  }

  /** No stream may be opened: the request waits for credit that never comes, until its pool timeout. */
  @ParameterizedTest(name = "stream limit {0}")
  @MethodSource("limits")
  void streamLimit(long maxStreams, Class<? extends HttpException> type, String fragment) throws Exception {
    check(concat(status200(), data("hi")), maxStreams, new byte[0], type, fragment);
  }

  /**
   * GOAWAY while the request is in flight: with a stream id past it (RFC 9114 5.2), the request was taken and
   * its answer is the response; with the request's own id, it was not processed and the server gives no answer.
   */
  @ParameterizedTest(name = "GOAWAY {0}")
  @MethodSource("goAways")
  void goAwayInFlight(String name, int lastStream, byte[] answer, Class<? extends HttpException> type, String fragment)
      throws Exception {
    check(answer, 100, frame(0x07, new byte[] {(byte) lastStream}), type, fragment);
  }

  static Stream<Arguments> goAways() {
    return Stream.of(
        Arguments.of("past the request, then the answer", 4, concat(status200(), data("hi")), null, null),
        Arguments.of("at the request, no answer", 0, new byte[0], ProtocolException.class, "without a response"));
  }

  static Stream<Arguments> limits() {
    return Stream.of(Arguments.of(0L, PoolTimeoutException.class, "allows no new request stream"));
  }

  private static void check(byte[] answer, long maxStreams, byte[] control, Class<? extends HttpException> type,
      String fragment)
      throws Exception {
    try (RawH3Server server = new RawH3Server(answer, maxStreams, control);
        Client client = Client.builder().tls(Http3Fixture.trustingTestCa()).version(VersionPolicy.HTTP_3_ONLY).timeout(TIMEOUT)
            .build()) {
      Object result = assertTimeoutPreemptively(DEADLINE, () -> {
        try {
          Response r = client.get(server.url());
          return r.status() + " " + r.text();
        } catch (HttpException e) {
          return e;
        }
      }, "the client hung");
      if (type == null) {
        assertEquals("200 hi", result);
      } else if (!(result instanceof HttpException e) || e.getClass() != type) {
        fail("expected " + type.getSimpleName() + " but got " + result);
      } else {
        assertTrue(e.getMessage().contains(fragment) && e.getMessage().contains("(GET " + server.url() + ")"),
            e.getMessage());
      }
      awaitNothingInUse(client);
    }
  }

  /** A peer that answers every datagram with garbage: the handshake never completes, and the connect timeout ends it. */
  @Test
  void garbageForEveryDatagramIsAConnectTimeout() throws Exception {
    try (DatagramSocket peer = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        Client client = Client.builder().tls(Http3Fixture.trustingTestCa()).version(VersionPolicy.HTTP_3_ONLY).timeout(TIMEOUT)
            .build()) {
      Thread.ofVirtual().start(() -> {
        byte[] buf = new byte[2048];
        byte[] garbage = "HTTP/1.1 400 Bad Request\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        try {
          while (true) {
            DatagramPacket in = new DatagramPacket(buf, buf.length);
            peer.receive(in);
            peer.send(new DatagramPacket(garbage, garbage.length, in.getSocketAddress()));
          }
        } catch (java.io.IOException closed) {
          // the test is over
        }
      });
      String url = "https://127.0.0.1:" + peer.getLocalPort() + "/";
      ConnectTimeoutException e = assertTimeoutPreemptively(DEADLINE,
          () -> assertThrows(ConnectTimeoutException.class, () -> client.get(url)), "the client hung");
      assertEquals(ConnectTimeoutException.class, e.getClass(), e.toString());
      assertTrue(e.getMessage().contains("QUIC handshake with 127.0.0.1:" + peer.getLocalPort() + " timed out after 1.0 s"),
          e.getMessage());
      awaitNothingInUse(client);
      assertEquals(0, client.stats().open(), client.stats().toString());
    }
  }

  private static void awaitNothingInUse(Client client) throws InterruptedException {
    long deadline = System.nanoTime() + 2_000_000_000L;
    while (true) {
      ClientStats stats = client.stats();
      if (stats.origins().values().stream().allMatch(o -> o.inUse() == 0 && o.pending() == 0)) {
        return;
      }
      if (System.nanoTime() > deadline) {
        fail("pool not back to inUse and pending 0: " + stats);
      }
      Thread.sleep(10);
    }
  }
}
