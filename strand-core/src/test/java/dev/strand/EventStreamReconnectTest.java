package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.peers.Peers;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Opt-in reconnection of event streams, as EventSource does it: resume with Last-Event-ID, stop on 204. */
@ExtendWith(NettyLeakDetectorExtension.class)
class EventStreamReconnectTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  private static final EventStream.Reconnect QUICK = new EventStream.Reconnect(
      Duration.ofMillis(5), Duration.ofMillis(40), 3, null);

  record Seen(int attempt, Duration delay, HttpException cause) {}

  private static List<String> ids(EventStream events, int n) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ServerSentEvent e = events.next();
      ids.add(e == null ? null : e.id());
    }
    return ids;
  }

  @Test
  void theStreamResumesAfterTheServerEndsItWaitingTheServersRetry() {
    List<Seen> seen = new CopyOnWriteArrayList<>();
    try (Client client = Client.create();
        EventStream events = client.events(Request.get(server.url("/sse?count=3")),
            QUICK.withListener((attempt, delay, cause) -> seen.add(new Seen(attempt, delay, cause))))) {
      assertEquals(List.of("1", "2", "3", "4", "5"), ids(events, 5), "one stream across the reconnection");
      assertEquals(1, events.reconnects());
      assertEquals("3", events.response().headers().first("x-last-event-id"), "sent Last-Event-ID: 3");
      assertEquals(List.of(new Seen(1, Duration.ofMillis(2500), null)), seen, "the server's retry: 2500, no failure");
    }
  }

  @Test
  void aiohttpStreamsAreResumedToo() {
    String aiohttp = Peers.env("STRAND_AIOHTTP_SSE_URL");
    try (Client client = Client.create();
        EventStream events = client.events(Request.get(aiohttp + "/events?count=2"), QUICK)) {
      assertEquals(List.of("1", "2", "3", "4"), ids(events, 4));
      assertEquals("2", events.response().headers().first("x-last-event-id"));
    }
  }

  private static Response stream(String text) {
    return Response.builder(200).header("Content-Type", "text/event-stream").body(text).build();
  }

  @Test
  void a204EndsTheStream() {
    AtomicInteger n = new AtomicInteger();
    MockTransport mock = MockTransport.of(r -> n.incrementAndGet() == 1 ? stream("id: 1\ndata: a\n\n") : Response.builder(204).build());
    try (Client client = Client.builder().transport(mock).build();
        EventStream events = client.events(Request.get("http://127.0.0.1/sse"), QUICK)) {
      assertEquals("a", events.next().data());
      assertNull(events.next(), "the 204 says: do not reconnect");
      assertEquals("1", mock.requests().get(1).headers().first("Last-Event-ID"));
      assertEquals(2, mock.requests().size());
    }
  }

  @Test
  void anErrorStatusOnReconnectionFailsTheStream() {
    AtomicInteger n = new AtomicInteger();
    MockTransport mock = MockTransport.of(r -> n.incrementAndGet() == 1 ? stream("data: a\n\n") : Response.builder(500).build());
    try (Client client = Client.builder().transport(mock).build();
        EventStream events = client.events(Request.get("http://127.0.0.1/sse"), QUICK)) {
      assertEquals("a", events.next().data());
      HttpStatusException e = assertThrows(HttpStatusException.class, events::next);
      assertEquals(500, e.status());
      assertNull(mock.requests().get(1).headers().first("Last-Event-ID"), "no id was set");
    }
  }

  @Test
  void failedAttemptsBackOffAndGiveUpAfterMaxAttempts() {
    AtomicInteger n = new AtomicInteger();
    List<Seen> seen = new CopyOnWriteArrayList<>();
    MockTransport mock = MockTransport.of(r -> {
      if (n.incrementAndGet() == 1) {
        return stream("data: a\n\n");
      }
      throw new ConnectException("connection refused", r);
    });
    try (Client client = Client.builder().transport(mock).build();
        EventStream events = client.events(Request.get("http://127.0.0.1/sse"),
            QUICK.withListener((attempt, delay, cause) -> seen.add(new Seen(attempt, delay, cause))))) {
      assertEquals("a", events.next().data());
      assertInstanceOf(ConnectException.class, assertThrows(TransportException.class, events::next));
      assertEquals(1 + 3, mock.requests().size(), "the first stream, then 3 attempts");
      assertEquals(List.of(1, 2, 3), seen.stream().map(Seen::attempt).toList());
      assertEquals(List.of(Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(20)),
          seen.stream().map(Seen::delay).toList(), "doubling after each failure");
      assertInstanceOf(ConnectException.class, seen.get(1).cause());
    }
  }

  @Test
  void closingDuringAWaitEndsNextPromptly() throws Exception {
    MockTransport mock = MockTransport.of(r -> stream("data: a\n\n"));
    var slow = new EventStream.Reconnect(Duration.ofSeconds(30), Duration.ofSeconds(30), 3, null);
    try (Client client = Client.builder().transport(mock).build();
        EventStream events = client.events(Request.get("http://127.0.0.1/sse"), slow)) {
      assertEquals("a", events.next().data());
      var reader = Executors.newVirtualThreadPerTaskExecutor();
      Future<ServerSentEvent> next = reader.submit(events::next);
      Thread.sleep(100);
      long start = System.nanoTime();
      events.close();
      assertNull(next.get(5, TimeUnit.SECONDS));
      assertTrue(System.nanoTime() - start < 2_000_000_000L);
      reader.shutdown();
    }
  }

  @Test
  void withoutReconnectTheStreamEndsWithItsResponse() {
    try (Client client = Client.create(); EventStream events = client.events(server.url("/sse?count=2"))) {
      assertEquals(List.of("1", "2"), ids(events, 2));
      assertNull(events.next());
      assertEquals(0, events.reconnects());
    }
  }
}
