package dev.strand.internal.exchange;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Headers;
import dev.strand.ProtocolException;
import dev.strand.ReadTimeoutException;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.Timeout;
import dev.strand.TransportException;
import dev.strand.Version;
import dev.strand.internal.pool.ConnectionPool;
import dev.strand.internal.pool.Origin;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The exchange driver on its own, through a fake {@link ExchangeDriver.Framing} that records what the
 * driver asks of its protocol: no socket, no HTTP/1.1 or HTTP/2 codec. What holds here holds for
 * every protocol the driver carries.
 */
class ExchangeDriverTest {
  private final EmbeddedChannel channel = new EmbeddedChannel();

  /** Records the driver's requests; answers "stop the upload" to an early answer when told to. */
  private final class FakeFraming implements ExchangeDriver.Framing {
    final List<String> calls = new ArrayList<>();
    boolean stopUploadOnEarlyAnswer = true;
    final DeadlineTimer timer;

    FakeFraming() {
      timer = new DeadlineTimer(channel.eventLoop(), now -> DeadlineTimer.NONE);
    }

    @Override public Channel channel() { return channel; }
    @Override public Object slice(byte[] body, int offset, int length, boolean last) {
      return Unpooled.wrappedBuffer(body, offset, length);
    }
    @Override public Object piece(ByteBufAllocator alloc, byte[] bytes, int length) {
      return alloc.buffer(length).writeBytes(bytes, 0, length);
    }
    @Override public Object endOfBody() { return null; }
    @Override public EventLoop eventLoop() { return channel.eventLoop(); }
    @Override public DeadlineTimer timer() { return timer; }
    @Override public void read() { calls.add("read"); }
    @Override public boolean answeredEarly(ExchangeDriver d) {
      calls.add("answeredEarly");
      return stopUploadOnEarlyAnswer;
    }
    @Override public void completed(ExchangeDriver d) { calls.add("completed"); }
    @Override public void abandoned(ExchangeDriver d, boolean connectionOk) {
      calls.add("abandoned connectionOk=" + connectionOk);
    }
  }

  private static final Exchange.Dispatch DISPATCH = new Exchange.Dispatch() {
    @Override public ConnectionPool<NettyConnection> pool() {
      throw new AssertionError("the driver never goes back to the pool itself");
    }
    @Override public EventLoopGroup timers() {
      throw new AssertionError("no pool timers here");
    }
    @Override public void responded(Origin origin, StreamingResponse r) {}
  };

  private final FakeFraming framing = new FakeFraming();

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
  }

  private ExchangeDriver driver(Request request) {
    return new ExchangeDriver(new Exchange(DISPATCH, request, Origin.of(request.url())), framing);
  }

  private static Request get() {
    return Request.builder("GET", "http://example.test/x").timeout(Timeout.of(Duration.ofSeconds(5))).build();
  }

  private static void respond(ExchangeDriver d, int status, long length) {
    d.respond(status, "", Headers.of(), Version.HTTP_1_1, length, null);
  }

  @Test
  void theResponseIsHandedOverAtTheEndOfTheReadThatCarriedItsHead() throws Exception {
    ExchangeDriver d = driver(get());
    d.requestWrittenWithHead(false);
    respond(d, 200, 5);
    assertFalse(d.exchange().future.isDone(), "not within the read: one wake-up per read");
    d.readComplete();
    StreamingResponse r = d.exchange().future.get();
    assertEquals(200, r.status());
    assertEquals(List.of("read"), framing.calls);

    assertTrue(d.content(Unpooled.copiedBuffer("hello", StandardCharsets.US_ASCII)));
    d.responseEnded();
    assertEquals(List.of("read", "completed"), framing.calls, "the stream goes back before the reader sees the end");
    assertArrayEquals("hello".getBytes(StandardCharsets.US_ASCII), r.body().readAllBytes());
    assertTrue(d.isDone());
  }

  @Test
  void aBodyShorterThanItsLengthFailsWithTheCountsAndKeepsTheConnection() throws Exception {
    ExchangeDriver d = driver(get());
    d.requestWrittenWithHead(false);
    respond(d, 200, 10);
    d.readComplete();
    StreamingResponse r = d.exchange().future.get();
    d.content(Unpooled.copiedBuffer("four", StandardCharsets.US_ASCII));
    d.responseEnded();
    assertEquals(List.of("read", "abandoned connectionOk=true"), framing.calls);
    java.io.IOException e = assertThrows(java.io.IOException.class, () -> r.body().readAllBytes());
    ProtocolException cause = assertInstanceOf(ProtocolException.class, e.getCause());
    assertTrue(cause.getMessage().contains("received 4 of 10 bytes"), cause.getMessage());
  }

  @Test
  void anAnswerBeforeTheWholeRequestAsksTheProtocolAndWaitsForTheUploadWhenToldTo() throws Exception {
    framing.stopUploadOnEarlyAnswer = false;
    ExchangeDriver d = driver(Request.builder("POST", "http://example.test/upload")
        .body(dev.strand.RequestBody.of("data", "text/plain")).build());
    respond(d, 413, 0);
    d.responseEnded();
    assertEquals(List.of("answeredEarly"), framing.calls, "the upload still runs: nothing completed yet");
    assertFalse(d.isDone());
    d.requestWritten();
    assertEquals(List.of("answeredEarly", "completed"), framing.calls);
    assertEquals(413, d.exchange().future.get().status());
  }

  @Test
  void interimResponsesAreBounded() {
    ExchangeDriver d = driver(get());
    for (int i = 0; i < ExchangeDriver.MAX_INTERIM_RESPONSES; i++) {
      assertTrue(d.interim());
    }
    assertFalse(d.interim());
    ExecutionException e = assertThrows(ExecutionException.class, () -> d.exchange().future.get());
    assertInstanceOf(ProtocolException.class, e.getCause());
    assertTrue(e.getCause().getMessage().contains("more than 100 interim"), e.getCause().getMessage());
  }

  @Test
  void theReadTimeoutRunsFromTheLastProgressAndNotWhileTheReaderIsBehind() {
    ExchangeDriver d = driver(get());
    d.requestWrittenWithHead(false);
    long due = d.deadline();
    assertTrue(due != DeadlineTimer.NONE);
    assertEquals(due, d.expire(due - 1), "not yet due: the timer is told when");
    assertEquals(DeadlineTimer.NONE, d.expire(due));
    ExecutionException e = assertThrows(ExecutionException.class, () -> d.exchange().future.get());
    assertInstanceOf(ReadTimeoutException.class, e.getCause());
    assertEquals(List.of("abandoned connectionOk=true"), framing.calls);
  }

  @Test
  void onceEndedEveryLateCallIsANoOp() {
    ExchangeDriver d = driver(get());
    d.requestWrittenWithHead(false);
    d.abort();
    d.fail(new TransportException("late", get()), false);
    d.responseEnded();
    d.complete();
    d.readComplete();
    assertEquals(List.of("abandoned connectionOk=true"), framing.calls, "abandoned once, nothing after");
    ExecutionException e = assertThrows(ExecutionException.class, () -> d.exchange().future.get());
    assertTrue(e.getCause().getMessage().startsWith("cancelled"), e.getCause().getMessage());
  }
}
