package dev.strand;

import static dev.strand.EventStreamTest.eventually;
import static dev.strand.EventStreamTest.readAll;
import static dev.strand.EventStreamTest.tick;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Event streams as HTTP/2 streams: h2 by ALPN over TLS, and h2c with prior knowledge. */
@ExtendWith(NettyLeakDetectorExtension.class)
class EventStreamHttp2Test {
  // One of each server mode for the whole class: h2 needs TLS, h2c does not.
  @RegisterExtension
  static final TestServerExtension tls = Http2Test.tlsServer();
  @RegisterExtension
  static final TestServerExtension h2c = Http2Test.h2cServer();

  static Client h2() {
    return Http2Test.h2(Limits.DEFAULT);
  }

  static Client h2c() {
    return Client.builder().version(VersionPolicy.HTTP_2_PRIOR_KNOWLEDGE).build();
  }

  @Test
  void eventsOverH2AndH2c() {
    try (Client client = h2(); EventStream events = client.events(tls.url("/sse?count=3"))) {
      assertEquals(Version.HTTP_2, events.response().version());
      assertEquals(List.of(tick(1), tick(2), tick(3)), readAll(events));
      assertEquals(Duration.ofMillis(2500), events.retry());
    }
    try (Client client = h2c(); EventStream events = client.events(h2c.url("/sse/split"))) {
      assertEquals(Version.HTTP_2, events.response().version());
      assertEquals(EventStreamTest.SPLIT_EVENTS, readAll(events));
    }
  }

  @Test
  void eachEventIsDeliveredBeforeTheNextIsSent() {
    String key = UUID.randomUUID().toString();
    try (Client client = h2(); EventStream events = client.events(tls.url("/sse/gated?key=" + key))) {
      assertEquals(tick(1), events.next());
      assertEquals(200, client.get(tls.url("/sse/release?key=" + key)).status(), "a second stream, same connection");
      assertEquals(tick(2, false), events.next());
      assertNull(events.next());
      assertEquals(1, client.stats().connectionsOpened());
    }
  }

  @Test
  void closingEarlyResetsTheStreamAndKeepsTheConnection() throws Exception {
    try (Client client = h2c()) {
      int before = h2c.get().openConnections();
      EventStream events = client.events(h2c.url("/sse/endless"));
      assertEquals("1", events.next().id());
      events.close();
      assertEquals(before + 1, h2c.get().openConnections(), "the TCP connection stays open");
      Request resume = Request.builder("GET", h2c.url("/sse?count=1")).header("Last-Event-ID", "41").build();
      try (EventStream again = client.events(resume)) {
        assertEquals("41", again.response().headers().first("x-last-event-id"));
        assertEquals(List.of(tick(42, true)), readAll(again));
      }
      assertEquals(1, client.stats().connectionsOpened(), "both streams on one connection: " + client.stats());
      eventually(() -> client.stats().inUse() == 0, client.stats());
    }
  }
}
