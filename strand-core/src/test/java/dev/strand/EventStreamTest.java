package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link Client#events} against the testkit's {@code /sse} endpoints over HTTP/1.1. */
@ExtendWith(NettyLeakDetectorExtension.class)
public class EventStreamTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  /** Event {@code n} of {@code /sse} (the first of a stream carries the retry). */
  public static ServerSentEvent tick(long n) {
    return tick(n, n == 1);
  }

  public static ServerSentEvent tick(long n, boolean first) {
    return new ServerSentEvent("tick", "tick " + n + "\nsecond line", String.valueOf(n),
        first ? Duration.ofMillis(2500) : null);
  }

  /** What {@code /sse/split} sends, however it is cut. */
  static final List<ServerSentEvent> SPLIT_EVENTS = List.of(
      new ServerSentEvent("message", "first\nsecond", "", null),
      new ServerSentEvent("café", "1 ☃ 2", "7", null),
      new ServerSentEvent("message", "last", "7", null));

  public static List<ServerSentEvent> readAll(EventStream events) {
    List<ServerSentEvent> out = new ArrayList<>();
    for (ServerSentEvent e : events) {
      out.add(e);
    }
    return out;
  }

  /** Waits, bounded, for what a connection's release changes on an event loop (no future to wait for). */
  static void eventually(BooleanSupplier condition, Object what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("never happened: " + what);
      }
      Thread.sleep(5);
    }
  }

  @Test
  void eventsCarryTypeIdDataAndRetry() {
    try (Client client = Client.create(); EventStream events = client.events(server.url("/sse?count=3"))) {
      assertEquals(200, events.response().status());
      assertEquals(List.of(tick(1), tick(2), tick(3)), readAll(events), "multi-line data, comments skipped");
      assertEquals("3", events.lastEventId());
      assertEquals(Duration.ofMillis(2500), events.retry(), "the first event's retry stays in effect");
      assertNull(events.next(), "still the end");
    }
  }

  @Test
  void aStreamReadToItsEndGoesBackToThePool() throws Exception {
    try (Client client = Client.create()) {
      for (int i = 0; i < 3; i++) {
        try (EventStream events = client.events(server.url("/sse?count=2"))) {
          assertEquals(2, readAll(events).size());
        }
      }
      assertEquals(1, client.stats().connectionsOpened(), "one connection, reused: " + client.stats());
      eventually(() -> client.stats().idle() == 1, client.stats());
    }
  }

  @Test
  void sendsSseHeadersUnlessTheCallerSetThem() {
    List<Request> sent = new CopyOnWriteArrayList<>();
    try (Client client = Client.builder().onRequest(sent::add).header("Accept", "application/json").build()) {
      try (EventStream events = client.events(server.url("/sse?count=1"))) {
        assertEquals(1, readAll(events).size());
      }
      Request own = Request.builder("GET", server.url("/sse?count=1"))
          .header("Accept", "text/event-stream, */*;q=0.1").header("Cache-Control", "max-age=0").build();
      try (EventStream events = client.events(own)) {
        assertEquals(1, readAll(events).size());
      }
    }
    assertEquals("text/event-stream", sent.get(0).headers().first("Accept"), "wins over the client's default");
    assertEquals("no-cache", sent.get(0).headers().first("Cache-Control"));
    assertEquals(List.of("text/event-stream, */*;q=0.1"), sent.get(1).headers().all("Accept"));
    assertEquals(List.of("max-age=0"), sent.get(1).headers().all("Cache-Control"));
  }

  @Test
  void lastEventIdIsPassedThroughAndTheServerResumes() {
    try (Client client = Client.create()) {
      String lastId;
      try (EventStream first = client.events(server.url("/sse?count=2"))) {
        readAll(first);
        lastId = first.lastEventId();
      }
      Request resume = Request.builder("GET", server.url("/sse?count=2")).header("Last-Event-ID", lastId).build();
      try (EventStream again = client.events(resume)) {
        assertEquals("2", again.response().headers().first("x-last-event-id"), "the server received it");
        assertEquals(List.of(tick(3, true), tick(4, false)), readAll(again));
      }
    }
  }

  @Test
  void awkwardChunksParseAsOneStream() {
    try (Client client = Client.create(); EventStream events = client.events(server.url("/sse/split"))) {
      assertEquals(SPLIT_EVENTS, readAll(events));
    }
  }

  @Test
  void eachEventIsDeliveredBeforeTheServerSendsTheNext() {
    String key = UUID.randomUUID().toString();
    try (Client client = Client.create();
        EventStream events = client.events(server.url("/sse/gated?key=" + key))) {
      assertEquals(tick(1), events.next(), "delivered while the server holds tick 2 back");
      assertEquals(200, client.get(server.url("/sse/release?key=" + key)).status(), "the stream was still waiting");
      assertEquals(tick(2, false), events.next());
      assertNull(events.next());
    }
  }

  @Test
  void closingEarlyReleasesTheConnection() throws Exception {
    try (Client client = Client.create()) {
      int before = server.get().openConnections();
      EventStream events = client.events(server.url("/sse/endless"));
      for (int i = 1; i <= 3; i++) {
        assertEquals(String.valueOf(i), events.next().id());
      }
      assertEquals(1, client.stats().inUse());
      events.close();
      assertNull(events.next(), "closed");
      eventually(() -> client.stats().open() == 0, client.stats());
      eventually(() -> server.get().openConnections() == before, "the server saw the connection close");
      assertEquals(200, client.get(server.url("/small")).status(), "the client works on");
    }
  }

  @Test
  void closeFromAnotherThreadEndsABlockedNext() throws Exception {
    String key = UUID.randomUUID().toString();
    try (Client client = Client.create();
        EventStream events = client.events(server.url("/sse/gated?key=" + key))) {
      assertEquals(tick(1), events.next());
      CompletableFuture<ServerSentEvent> blocked = CompletableFuture.supplyAsync(events::next);
      events.close();
      assertNull(blocked.get(10, TimeUnit.SECONDS));
      eventually(() -> client.stats().open() == 0, client.stats());
    }
  }

  @Test
  void aWrongContentTypeIsAProtocolError() throws Exception {
    try (Client client = Client.create()) {
      ProtocolException e = assertThrows(ProtocolException.class, () -> client.events(server.url("/sse/wrong-type")));
      assertTrue(e.getMessage().contains("text/plain; charset=utf-8"), e.getMessage());
      assertTrue(e.getMessage().contains("text/event-stream"), e.getMessage());
      assertNotNull(e.request());
      eventually(() -> client.stats().inUse() == 0, client.stats());
    }
  }

  @Test
  void anErrorStatusIsAnHttpStatusExceptionWithItsBody() throws Exception {
    try (Client client = Client.create()) {
      HttpStatusException e = assertThrows(HttpStatusException.class, () -> client.events(server.url("/no-such")));
      assertEquals(404, e.status());
      assertTrue(e.getMessage().startsWith("404 Not Found (client error) for "), e.getMessage());
      assertEquals("no such endpoint: /no-such\n", e.response().text());
      eventually(() -> client.stats().idle() == 1, "a small error body is read, so the connection is kept");
    }
  }

  @Test
  void noContentIsAnEmptyStream() {
    try (Client client = Client.create(); EventStream events = client.events(server.url("/status/204"))) {
      assertEquals(204, events.response().status());
      assertNull(events.next());
      assertEquals("", events.lastEventId());
      assertNull(events.retry());
    }
  }

  @Test
  void anUnfollowedRedirectIsAProtocolError() {
    try (Client client = Client.create()) {
      ProtocolException e = assertThrows(ProtocolException.class, () -> client.events(server.url("/redirect/1")));
      assertTrue(e.getMessage().contains("302") && e.getMessage().contains("followRedirects"), e.getMessage());
    }
    try (Client client = Client.builder().followRedirects(true).build();
        EventStream events = client.events(server.url("/redirect-to?url=/sse%3Fcount%3D1"))) {
      assertEquals(List.of(tick(1)), readAll(events), "followed, it is a stream");
    }
  }

  @Test
  void anEventOverTheLimitFailsAndDiscardsTheConnection() throws Exception {
    try (Client client = Client.builder().maxEventSize(20).build();
        EventStream events = client.events(server.url("/sse/endless"))) {
      ProtocolException e = assertThrows(ProtocolException.class, events::next);
      assertTrue(e.getMessage().contains("limit of 20 bytes"), e.getMessage());
      assertNull(events.next(), "the stream is closed");
      eventually(() -> client.stats().open() == 0, client.stats());
    }
    assertThrows(IllegalArgumentException.class, () -> Client.builder().maxEventSize(0));
  }

  @Test
  void aSilentStreamTimesOutBetweenEvents() throws Exception {
    Request slow = Request.builder("GET", server.url("/sse?count=2&interval=60000"))
        .timeout(Timeout.DEFAULT.withRead(Duration.ofMillis(300))).build();
    try (Client client = Client.create(); EventStream events = client.events(slow)) {
      assertEquals(tick(1), events.next());
      long start = System.nanoTime();
      assertThrows(ReadTimeoutException.class, events::next);
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(millis >= 250 && millis < 5000, "timed out after " + millis + " ms");
      eventually(() -> client.stats().open() == 0, client.stats());
    }
  }

  @Test
  void asyncFormCompletesWithTheHeadAndFailsLikeTheSyncForm() throws Exception {
    try (Client client = Client.create()) {
      CompletableFuture<EventStream> f = client.async().events(server.url("/sse?count=2"));
      try (EventStream events = f.get(10, TimeUnit.SECONDS)) {
        assertEquals(List.of(tick(1), tick(2)), readAll(events));
      }
      ExecutionException e = assertThrows(ExecutionException.class,
          () -> client.async().events(server.url("/sse/wrong-type")).get(10, TimeUnit.SECONDS));
      assertInstanceOf(ProtocolException.class, e.getCause());
      ExecutionException notFound = assertThrows(ExecutionException.class,
          () -> client.async().events(Request.get(server.url("/nope"))).get(10, TimeUnit.SECONDS));
      assertEquals(404, assertInstanceOf(HttpStatusException.class, notFound.getCause()).status());
    }
  }

  @Test
  void cancellingTheFutureReleasesTheStream() throws Exception {
    try (Client client = Client.create()) {
      CompletableFuture<EventStream> f = client.async().events(server.url("/never"));
      eventually(() -> client.stats().inUse() == 1, client.stats());
      assertTrue(f.cancel(true));
      eventually(() -> client.stats().open() == 0, client.stats());
    }
  }

  @Test
  void toStringsAreReadable() {
    try (Client client = Client.create(); EventStream events = client.events(server.url("/sse?count=1"))) {
      ServerSentEvent e = events.next();
      assertEquals("ServerSentEvent{event=tick, id=1, retry=2500ms, data=\"tick 1\\nsecond line\"}", e.toString());
      assertTrue(events.toString().startsWith("EventStream{200 OK, HTTP/1.1, GET "), events.toString());
      assertTrue(events.toString().endsWith(", lastEventId=1}"), events.toString());
    }
    String longData = "x".repeat(500);
    assertTrue(new ServerSentEvent("message", longData, "", null).toString().endsWith("\"... (500 chars)}"));
  }
}
