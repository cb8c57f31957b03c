package dev.strand;

import dev.strand.internal.sse.EventParser;
import dev.strand.internal.sse.Reconnector;
import dev.strand.spi.StreamingResponses;
import java.time.Duration;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

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
 * <p><b>Reconnection is opt-in.</b> By default (as httpx-sse) the stream ends when its response ends or
 * fails; open a new one yourself, sending {@code Last-Event-ID: }{@link #lastEventId()} and waiting
 * {@link #retry()} if the server asked for it. With {@link Client#events(Request, Reconnect)} the stream
 * does that itself, as a browser's {@code EventSource} does: when the connection ends or breaks, it waits
 * the server's {@code retry:} time (else {@link Reconnect#delay()}, doubling after each failed attempt up to
 * {@link Reconnect#maxDelay()}), sends the request again with {@code Last-Event-ID}, and goes on; the
 * caller sees one stream, and {@link #reconnects()} and {@link Reconnect#onReconnect} show the seams. It
 * stops on a 204 (the end of the stream: the server's way of saying "do not reconnect"), fails on any other
 * status but a 2xx event stream, on an event too large and after {@link Reconnect#maxAttempts()}
 * consecutive failed attempts. A 204 without reconnection is an empty stream.
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

  private volatile StreamingResponse response;
  private final EventParser parser;
  private final Reconnector reconnector;
  private volatile boolean closed;
  private boolean ended;
  private int reconnects;
  /** The call's listener side, or {@code null}. */
  private final dev.strand.internal.events.CallEvents events;

  private EventStream(StreamingResponse response, int maxEventSize, Reconnector reconnector) {
    this.response = response;
    this.parser = new EventParser(maxEventSize, response.request());
    this.reconnector = reconnector;
    this.events = dev.strand.internal.events.CallEvents.of(response.request());
  }

  static EventStream of(StreamingResponse response, int maxEventSize) {
    return new EventStream(response, maxEventSize, null);
  }

  /** A stream that reopens itself: {@code open} sends a request and completes with its checked event-stream response. */
  static EventStream reconnecting(StreamingResponse response, int maxEventSize, Request request, Reconnect reconnect,
      Function<Request, CompletableFuture<StreamingResponse>> open) {
    return new EventStream(response, maxEventSize, new Reconnector(request, reconnect, open));
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
      HttpException broke = null;
      try {
        byte[] chunk = response.status() == 204 ? null : StreamingResponses.body(response).readChunk();
        if (chunk != null) {
          parser.feed(chunk);
          continue;
        }
      } catch (RuntimeException e) {
        if (closed) {
          return null; // close() from another thread, racing the read it interrupted
        }
        response.close();
        if (reconnector == null || e instanceof ProtocolException || !(e instanceof TransportException te)) {
          close();
          throw e;
        }
        broke = te;
      }
      if (reconnector == null || response.status() == 204) {
        ended = true;
      } else {
        reconnect(broke);
      }
    }
    if (event != null && !closed && events != null) {
      events.serverSentEvent(event);
    }
    return closed ? null : event;
  }

  /** Opens the stream again after it ended ({@code cause} null) or broke; sets {@link #ended} on a 204. */
  private void reconnect(HttpException cause) {
    parser.reset();
    StreamingResponse next = reconnector.reopen(cause, parser.lastEventId(), parser.retry());
    if (next == null) { // closed meanwhile
      return;
    }
    response = next;
    reconnects++;
    if (events != null) {
      events.eventStreamReconnected(reconnects);
    }
    if (next.status() == 204) {
      next.close();
      ended = true;
    }
  }

  /** How many times the stream reconnected (always 0 without {@link Reconnect}). */
  public int reconnects() {
    return reconnects;
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

  /** Status, headers, version and request of the response carrying the stream (after a reconnection, the latest). */
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
    if (reconnector != null) {
      reconnector.stop();
    }
    response.close();
  }

  /**
   * Opt-in reconnection of an {@link EventStream}, as {@code EventSource} does it; see the class comment.
   *
   * @param delay the wait before reconnecting when the server sent no {@code retry:} field (default 3 s)
   * @param maxDelay the longest wait, after failed attempts have doubled it (default 30 s)
   * @param maxAttempts consecutive failed attempts before the stream fails with the last failure (default unlimited)
   * @param onReconnect told before each wait, on the reading thread; {@code null} for none
   */
  public record Reconnect(Duration delay, Duration maxDelay, int maxAttempts, Listener onReconnect) {
    public Reconnect {
      Objects.requireNonNull(delay, "delay");
      Objects.requireNonNull(maxDelay, "maxDelay");
      if (delay.isNegative() || maxDelay.compareTo(delay) < 0 || maxAttempts < 1) {
        throw new IllegalArgumentException("need 0 <= delay <= maxDelay and maxAttempts >= 1: " + delay + ", "
            + maxDelay + ", " + maxAttempts);
      }
    }

    /** 3 s, doubling up to 30 s after failures, for as long as it takes. */
    public static Reconnect defaults() {
      return new Reconnect(Duration.ofSeconds(3), Duration.ofSeconds(30), Integer.MAX_VALUE, null);
    }

    public Reconnect withDelay(Duration delay, Duration maxDelay) {
      return new Reconnect(delay, maxDelay, maxAttempts, onReconnect);
    }

    public Reconnect withMaxAttempts(int maxAttempts) {
      return new Reconnect(delay, maxDelay, maxAttempts, onReconnect);
    }

    public Reconnect withListener(Listener onReconnect) {
      return new Reconnect(delay, maxDelay, maxAttempts, onReconnect);
    }

    /** Observes reconnections. */
    @FunctionalInterface
    public interface Listener {
      /**
       * A reconnection attempt is about to wait {@code delay}: {@code attempt} counts the attempts since the
       * stream last delivered data (1 first); {@code cause} is why, {@code null} when the server ended the stream.
       */
      void onReconnect(int attempt, Duration delay, HttpException cause);
    }
  }

  @Override
  public String toString() {
    return "EventStream{" + response.status() + " " + response.reason() + ", " + response.version() + ", "
        + response.request() + (lastEventId().isEmpty() ? "" : ", lastEventId=" + lastEventId()) + "}";
  }
}
