package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.HostilePeer;
import dev.strand.testkit.NettyLeakDetectorExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Event streams from servers scripted byte for byte ({@link HostilePeer}): odd framing, resets, compression. */
@ExtendWith(NettyLeakDetectorExtension.class)
class EventStreamBadPeerTest {
  private static final String HEAD = "Content-Type: text/event-stream\r\n";

  private static ServerSentEvent message(String data, String id) {
    return new ServerSentEvent("message", data, id, null);
  }

  private static void write(OutputStream out, String s) throws IOException {
    out.write(s.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  @Test
  void aCloseDelimitedBodyDeliversEveryCompleteEventThenEnds() throws Exception {
    for (String status : new String[] {"HTTP/1.0 200 OK\r\n", "HTTP/1.1 200 OK\r\nConnection: close\r\n"}) {
      try (HostilePeer peer = new HostilePeer(c -> {
          c.readHead();
          OutputStream out = c.out();
            write(out, status + HEAD + "\r\n");
            write(out, "id: 1\ndata: one\n\n");
            write(out, "data: two\r\n\r\n");
            write(out, "data: never dispatched, the stream ends first\n");
          });
          Client client = Client.builder().timeout(Timeout.DEFAULT.withRead(Duration.ofSeconds(5))).build();
          EventStream events = client.events(peer.url("http", "/sse"))) {
        assertEquals(message("one", "1"), events.next(), status);
        assertEquals(message("two", "1"), events.next(), status);
        assertNull(events.next(), status);
        assertNull(events.next(), "the end stays the end");
      }
    }
  }

  @Test
  void aResetMidEventIsATransportException() throws Exception {
    CountDownLatch firstRead = new CountDownLatch(1);
    try (HostilePeer peer = new HostilePeer(c -> {
          c.readHead();
          OutputStream out = c.out();
          write(out, "HTTP/1.1 200 OK\r\n" + HEAD + "Transfer-Encoding: chunked\r\n\r\n");
          write(out, "b\r\ndata: one\n\n\r\n");
          write(out, "7\r\ndata: t\r\n"); // half an event
          firstRead.await(10, TimeUnit.SECONDS);
          c.reset();
        });
        Client client = Client.builder().timeout(Timeout.DEFAULT.withRead(Duration.ofSeconds(5))).build();
        EventStream events = client.events(peer.url("http", "/sse"))) {
      assertEquals(message("one", ""), events.next());
      firstRead.countDown();
      long start = System.nanoTime();
      TransportException e = assertThrows(TransportException.class, events::next);
      assertFalse(e instanceof TimeoutException, e.toString());
      assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 4000, "not the read timeout");
      assertTrue(e.getMessage().contains(peer.url("http", "/sse")), e.getMessage());
      EventStreamTest.eventually(() -> client.stats().origins().values().stream().allMatch(o -> o.open() == 0),
          client.stats());
    }
  }

  @Test
  void aGzipStreamIsDecodedAsItArrives() throws Exception {
    CountDownLatch firstDelivered = new CountDownLatch(1);
    try (HostilePeer peer = new HostilePeer(c -> {
          c.readHead();
          OutputStream out = c.out();
          write(out, "HTTP/1.1 200 OK\r\n" + HEAD + "Content-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n");
          ByteArrayOutputStream compressed = new ByteArrayOutputStream();
          try (GZIPOutputStream gzip = new GZIPOutputStream(compressed, true)) {
            gzip.write("id: 1\ndata: one\n\n".getBytes(StandardCharsets.UTF_8));
            gzip.flush(); // a sync flush: everything so far can be inflated
            chunk(out, compressed);
            if (!firstDelivered.await(10, TimeUnit.SECONDS)) {
              throw new AssertionError("event one was not delivered while the server held event two back");
            }
            gzip.write("id: 2\ndata: two\n\n".getBytes(StandardCharsets.UTF_8));
          }
          chunk(out, compressed);
          write(out, "0\r\n\r\n");
        });
        Client client = Client.builder().timeout(Timeout.DEFAULT.withRead(Duration.ofSeconds(5))).build();
        EventStream events = client.events(peer.url("http", "/sse"))) {
      assertEquals(message("one", "1"), events.next());
      firstDelivered.countDown();
      assertEquals(message("two", "2"), events.next());
      assertNull(events.next());
      assertNull(peer.scriptError(0));
    }
  }

  /** Writes what {@code buffer} holds as one chunk, and empties it. */
  private static void chunk(OutputStream out, ByteArrayOutputStream buffer) throws IOException {
    out.write((Integer.toHexString(buffer.size()) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    buffer.writeTo(out);
    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    out.flush();
    buffer.reset();
  }
}
