package dev.strand.internal.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.ClientStats;
import dev.strand.ProtocolException;
import dev.strand.StreamingResponse;
import dev.strand.internal.exchange.Exchange;
import dev.strand.internal.pool.Origin;
import dev.strand.spi.StreamingResponses;
import dev.strand.testkit.NettyLeakDetectorExtension;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A 101 to a request that asks to switch protocols, on an EmbeddedChannel: the connection changes hands. */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http1UpgradeTest {
  static final Origin UPGRADES = EmbeddedHttp1.ORIGIN.forUpgrade();

  final EmbeddedHttp1 h = new EmbeddedHttp1(64 * 1024);

  @AfterEach
  void close() {
    h.close();
  }

  /** The new protocol's side: what it was handed, and the bytes that reach its handler. */
  static final class Taker extends ChannelInboundHandlerAdapter implements Exchange.Upgrade {
    final StringBuilder bytes = new StringBuilder();
    Channel channel;
    StreamingResponse response;

    @Override
    public void switched(Channel ch, StreamingResponse r) {
      channel = ch;
      response = r;
      ch.pipeline().addLast("new-protocol", this);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof ByteBuf buf) {
        bytes.append(buf.toString(StandardCharsets.ISO_8859_1));
      }
      ReferenceCountUtil.release(msg); // also the 101's empty end
    }
  }

  CompletableFuture<StreamingResponse> send(Exchange.Upgrade upgrade) {
    Exchange x = new Exchange(h.engine, EmbeddedHttp1.request("GET", "/chat").header("Upgrade", "test").build(),
        UPGRADES, upgrade);
    h.engine.pool().acquire(UPGRADES, x, false);
    return x.future;
  }

  ClientStats.OriginStats stats() {
    return h.engine.pool().stats().get(UPGRADES.toString());
  }

  @Test
  void theBytesBehindThe101ReachTheNewProtocolAfterTheCallerHasTheResponse() {
    Taker taker = new Taker();
    CompletableFuture<StreamingResponse> f = send(taker);
    StringBuilder bytesAtResponse = new StringBuilder();
    f.thenRun(() -> bytesAtResponse.append('[').append(taker.bytes).append(']'));
    assertTrue(h.written().startsWith("GET /chat HTTP/1.1\r\n"));
    h.receive("HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\nfirst bytes");
    StreamingResponse r = f.getNow(null);
    assertEquals(101, r.status());
    assertSame(r, taker.response);
    assertSame(h.channel, taker.channel);
    assertEquals(new ClientStats.OriginStats(0, 0, 0, 0), stats(), "out of the pool");
    assertEquals("[]", bytesAtResponse.toString(), "not before the caller had the response");
    assertEquals("first bytes", taker.bytes.toString());
    assertNull(h.channel.pipeline().get(ResponseDecoder.class));
    assertNull(h.channel.pipeline().get(Http1ResponseHandler.class));
    h.receive("more");
    assertEquals("first bytesmore", taker.bytes.toString());
    assertTrue(h.channel.isOpen(), "the new protocol's to close");
  }

  @Test
  void aRefusedAnswerFailsTheExchangeAndClosesTheConnection() {
    ProtocolException refused = new ProtocolException("not my protocol", null);
    CompletableFuture<StreamingResponse> f = send((ch, r) -> {
      throw refused;
    });
    h.written();
    h.receive("HTTP/1.1 101 Switching Protocols\r\nUpgrade: other\r\nConnection: Upgrade\r\n\r\nbytes");
    assertSame(refused, Http1CodecTest.failure(f));
    assertFalse(h.channel.isOpen());
    assertEquals(new ClientStats.OriginStats(0, 0, 0, 0), stats());
  }

  @Test
  void anotherAnswerIsAResponseLikeAnyOther() throws Exception {
    Taker taker = new Taker();
    CompletableFuture<StreamingResponse> f = send(taker);
    h.written();
    h.receive("HTTP/1.1 403 Forbidden\r\nContent-Length: 2\r\n\r\nno");
    StreamingResponse r = f.getNow(null);
    assertEquals(403, r.status());
    assertEquals("no", new String(StreamingResponses.body(r).readAll(10).get(), StandardCharsets.US_ASCII));
    assertNull(taker.channel);
    assertEquals(new ClientStats.OriginStats(1, 1, 0, 0), stats(), "kept for the next handshake");
  }
}
