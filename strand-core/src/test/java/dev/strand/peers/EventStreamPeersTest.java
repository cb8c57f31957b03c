package dev.strand.peers;

import static dev.strand.EventStreamTest.readAll;
import static dev.strand.EventStreamTest.tick;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.strand.Client;
import dev.strand.EventStream;
import dev.strand.Request;
import dev.strand.ServerSentEvent;
import dev.strand.testkit.NettyLeakDetectorExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Event streams from servers that are not ours: nginx serving a pre-recorded stream as a static file, and an
 * aiohttp application writing one as it goes (.ci/sse/aiohttp_sse.py). bin/test starts both and sets
 * {@code STRAND_NGINX_URL} and {@code STRAND_AIOHTTP_SSE_URL}; without them the tests are skipped, except on
 * CI, where that is an error.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
@Tag("peer")
class EventStreamPeersTest {

  @Test
  void nginxServesARecordedStream() {
    String nginx = Peers.env("STRAND_NGINX_URL");
    try (Client client = Client.create(); EventStream events = client.events(nginx + "/events.sse")) {
      assertEquals("text/event-stream", events.response().headers().first("Content-Type"));
      // The file is SseEndpoints.RECORDED: a BOM, a retry-only block, ticks 1-3, the /sse/split text and an
      // event cut off by the end of the file.
      assertEquals(List.of(tick(1), tick(2), tick(3),
          new ServerSentEvent("message", "first\nsecond", "3", null),
          new ServerSentEvent("café", "1 ☃ 2", "7", null),
          new ServerSentEvent("message", "last", "7", null)), readAll(events));
      assertEquals("7", events.lastEventId());
      assertEquals(Duration.ofMillis(2500), events.retry());
    }
  }

  @Test
  void aiohttpWritesAStreamAsItGoes() {
    String aiohttp = Peers.env("STRAND_AIOHTTP_SSE_URL");
    try (Client client = Client.create()) {
      String lastId;
      try (EventStream events = client.events(aiohttp + "/events?count=3")) {
        assertEquals(List.of(update(1), update(2), update(3)), readAll(events));
        assertEquals(Duration.ofMillis(1500), events.retry(), "from a block without data");
        lastId = events.lastEventId();
      }
      Request resume = Request.builder("GET", aiohttp + "/events?count=2").header("Last-Event-ID", lastId).build();
      try (EventStream events = client.events(resume)) {
        assertEquals("3", events.response().headers().first("x-last-event-id"));
        assertEquals(update(4), events.next());
        assertEquals(update(5), events.next());
        assertNull(events.next());
      }
      assertEquals(1, client.stats().connectionsOpened(), "streams read to the end keep the connection");
    }
  }

  private static ServerSentEvent update(int n) {
    return new ServerSentEvent("update", "{\"n\": " + n + "}\nend of " + n, String.valueOf(n), null);
  }
}
