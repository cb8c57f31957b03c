package dev.strand;

import dev.strand.internal.sse.EventParser;
import java.time.Duration;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A stream of server-sent events ({@code text/event-stream}), parsed as the WHATWG HTML standard's
 * {@code EventSource} does, and delivered one at a time as they arrive. Obtain one from
 * {@link Client#events(Request)}; close it (try-with-resources) to release its connection: closing before
 * the end discards the connection, as closing a {@link StreamingResponse} does.
 *
 * {@snippet :
 * try (EventStream events = client.events("http://127.0.0.1:8080/sse?count=3")) {
 *   for (ServerSentEvent e : events) {
 *     System.out.println(e.event() + ": " + e.data());
 *   }
 * }
 * }
 *
 * <p><b>No automatic reconnection</b> (as httpx-sse): when the stream ends or fails, open a new one
 * yourself, sending {@code Last-Event-ID: }{@link #lastEventId()} and waiting {@link #retry()} if the
 * server asked for it. A 204 response is an empty stream: the server's way of saying "do not reconnect".
 *
 * <p><b>Idle streams and timeouts.</b> The read timeout of the request's {@link Timeout} applies
 * between chunks: a stream silent for longer fails {@link #next()} with {@link ReadTimeoutException}.
 * Servers usually send {@code :} comment lines as keep-alives more often than that; for streams that
 * may stay silent longer, give the request a longer read timeout, or {@link Timeout#none()}.
 *
 * <p>Events are read on the caller's thread with backpressure: bytes are pulled from the network only as
 * {@link #next()} asks for them. One thread reads at a time; {@link #close()} may come from any thread,
 * and ends a blocked {@link #next()} with {@code null}.
 */
public final class EventStream implements AutoCloseable, Iterable<ServerSentEvent> {
  /** Default for {@link Client.Builder#maxEventSize}: 1 MiB. */
  public static final int DEFAULT_MAX_EVENT_SIZE = 1024 * 1024;

  private final StreamingResponse response;
  private final EventParser parser;
  private volatile boolean closed;
  private boolean ended;

  private EventStream(StreamingResponse response, int maxEventSize) {
    this.response = response;
    this.parser = new EventParser(maxEventSize, response.request());
  }

  static EventStream of(StreamingResponse response, int maxEventSize) {
    return new EventStream(response, maxEventSize);
  }

  /**
   * Blocks until the next event arrives and returns it, or returns {@code null} at the end of the stream
   * (the connection then goes back to the pool) or once it is closed. An event cut off by the end of the
   * stream is discarded, as the standard says.
   *
   * @throws TransportException if reading fails ({@link ReadTimeoutException} on a stream silent for
   *     longer than the read timeout); {@link ProtocolException} for an event larger than
   *     {@link Client.Builder#maxEventSize}. The connection is then discarded.
   */
  public ServerSentEvent next() {
    ServerSentEvent event;
    while ((event = parser.poll()) == null && !ended && !closed) {
      try {
        byte[] chunk = response.responseBody().readChunk();
        if (chunk == null) {
          ended = true;
        } else {
          parser.feed(chunk);
        }
      } catch (RuntimeException e) {
        if (closed) {
          return null; // close() from another thread, racing the read it interrupted
        }
        close();
        throw e;
      }
    }
    return closed ? null : event;
  }

  /**
   * The events, read as the iteration goes; a one-shot view of this stream (events taken through
   * {@link #next()} or an earlier iterator are not seen again).
   *
   * @throws TransportException from the iterator's {@code hasNext()}, as {@link #next()} throws
   */
  @Override
  public Iterator<ServerSentEvent> iterator() {
    return new Iterator<>() {
      private ServerSentEvent next;

      @Override
      public boolean hasNext() {
        if (next == null) {
          next = EventStream.this.next();
        }
        return next != null;
      }

      @Override
      public ServerSentEvent next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        ServerSentEvent out = next;
        next = null;
        return out;
      }
    };
  }

  /** Status, headers, version and request of the response carrying the stream. */
  public ResponseHead response() {
    return response;
  }

  /**
   * The last event ID the stream set, as of the last complete event block (blocks without data count):
   * the value to send as {@code Last-Event-ID} when reconnecting. {@code ""} if none was set.
   */
  public String lastEventId() {
    return parser.lastEventId();
  }

  /** The reconnection time the server last asked for with a {@code retry:} field, or {@code null}. */
  public Duration retry() {
    return parser.retry();
  }

  /** Releases the connection: to the pool if the stream was read to its end, else discarded. Idempotent. */
  @Override
  public void close() {
    closed = true;
    response.close();
  }

  @Override
  public String toString() {
    return "EventStream{" + response.status() + " " + response.reason() + ", " + response.version() + ", "
        + response.request() + (lastEventId().isEmpty() ? "" : ", lastEventId=" + lastEventId()) + "}";
  }
}
