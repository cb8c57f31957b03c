package dev.strand.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.strand.HttpException;
import dev.strand.Request;
import dev.strand.ServerSentEvent;
import dev.strand.internal.sse.EventParser;

/** An event stream's bytes, in reads split by the first byte: events come out whole and within the size limit. */
class ServerSentEventsFuzzTest {
  private static final int MAX_EVENT = 4096;
  private static final Request REQUEST = Request.builder("GET", "http://example.test/events").build();

  @FuzzTest
  void eventStream(byte[] stream) {
    EventParser parser = new EventParser(MAX_EVENT, REQUEST);
    try {
      for (byte[] piece : Fuzzing.pieces(stream)) {
        parser.feed(piece);
        ServerSentEvent e;
        while ((e = parser.poll()) != null) {
          if (e.data().length() > MAX_EVENT) {
            throw new AssertionError("event of " + e.data().length() + " chars past the limit of " + MAX_EVENT);
          }
        }
      }
    } catch (HttpException expected) {
      // an event past the limit
    }
    parser.lastEventId();
    parser.retry();
  }
}
