package dev.strand;

import java.net.InetAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.SSLSession;

/**
 * What a client does, step by step, for one call: set one on the builder ({@link Client.Builder#eventListener})
 * to see which phase of a slow call took the time, to log, or to feed metrics. Every method has a no-op
 * default; override what you need. Each event carries the {@link Call} (its request and current attempt)
 * and a monotonic timestamp from {@link System#nanoTime()}, so durations are differences of two events.
 *
 * <p>For one call the events come in this order (steps a call skips are left out): {@code callStart};
 * then per attempt {@code connectionAcquireStart}, for a new connection {@code dnsStart}/{@code dnsEnd},
 * {@code connectStart}/{@code connectEnd} (or {@code connectFailed}) and {@code tlsStart}/{@code tlsEnd},
 * {@code connectionAcquired}, {@code requestHeadersSent}, {@code requestBodySent},
 * {@code responseHeadersReceived}, {@code responseBodyReceived} and {@code connectionReleased}; between
 * attempts {@code redirect} or {@code retry}; last {@code callEnd} (once the body was read or closed) or
 * {@code callFailed}. Connection events belong to the call whose request opened the connection. A
 * WebSocket call then reports {@code webSocketOpen}, each {@code webSocketMessage} and {@code webSocketClosed};
 * an event-stream call each {@code serverSentEvent} and {@code eventStreamReconnected} as they are read.
 *
 * <p>Callbacks run on whatever thread the step happened on, often an I/O thread: keep them short and
 * never block. A listener that throws is reported once (on the {@code dev.strand} {@link System.Logger})
 * and its failures ignored afterwards; the call goes on. A listener that holds a thread for more than
 * 100 ms is reported once and from then on gets the client's events on a thread of its own, in order, so it
 * cannot stall other calls (if it falls 65,536 events behind, newer ones are dropped). With no listener set,
 * none of this costs anything.
 *
 * {@snippet :
 * EventListener slowPhases = new EventListener() {
 *   @Override
 *   public void connectEnd(Call call, long nanos, SocketAddress address) {
 *     System.out.println(call.request() + " connected to " + address);
 *   }
 *   @Override
 *   public void responseHeadersReceived(Call call, long nanos, ResponseHead head) {
 *     System.out.println(head.status() + " after " + (nanos - call.startNanos()) / 1000 + " µs");
 *   }
 * };
 * Client client = Client.builder().eventListener(slowPhases).build();
 * }
 */
public interface EventListener {
  /** The call an event belongs to. */
  interface Call {
    /** A number unique within the client, for correlating events. */
    long id();

    /** The request as the caller made it (with the client's defaults applied). */
    Request request();

    /** 1 for the first attempt of the current hop, counting up with retries. */
    int attempt();

    /** When the call started ({@link System#nanoTime()}). */
    long startNanos();
  }

  /**
   * The connection a call acquired, as {@link #connectionAcquired} reports it. A value that may gain
   * fields in later versions: read it through its accessors. Strand makes these; {@link #of} is there for
   * tests of a listener.
   */
  final class AcquiredConnection {
    private final long id;
    private final Version version;
    private final boolean reused;
    private final Duration waited;

    private AcquiredConnection(long id, Version version, boolean reused, Duration waited) {
      this.id = id;
      this.version = Objects.requireNonNull(version, "version");
      this.reused = reused;
      this.waited = Objects.requireNonNull(waited, "waited");
    }

    /**
     * A connection as {@link #connectionAcquired} would report it.
     *
     * @throws IllegalArgumentException if {@code waited} is negative
     */
    public static AcquiredConnection of(long id, Version version, boolean reused, Duration waited) {
      if (waited.isNegative()) {
        throw new IllegalArgumentException("waited must not be negative: " + waited);
      }
      return new AcquiredConnection(id, version, reused, waited);
    }

    /** The connection's number, unique within the client; {@link #connectionReleased} names it too. */
    public long id() {
      return id;
    }

    /** The protocol the connection speaks. */
    public Version version() {
      return version;
    }

    /** Whether the connection carried an exchange before this one. */
    public boolean reused() {
      return reused;
    }

    /** How long the call waited for the connection, connecting included. */
    public Duration waited() {
      return waited;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof AcquiredConnection c
          && id == c.id && version == c.version && reused == c.reused && waited.equals(c.waited);
    }

    @Override
    public int hashCode() {
      return Objects.hash(id, version, reused, waited);
    }

    @Override
    public String toString() {
      return "AcquiredConnection[id=" + id + ", version=" + version + ", reused=" + reused + ", waited=" + waited
          + "]";
    }
  }

  default void callStart(Call call, long nanos) {}

  /** The call is over: its response body was read to the end or closed. */
  default void callEnd(Call call, long nanos) {}

  default void callFailed(Call call, long nanos, HttpException failure) {}

  /** The call waits for a connection from the pool (which may open one). */
  default void connectionAcquireStart(Call call, long nanos) {}

  default void dnsStart(Call call, long nanos, String host) {}

  default void dnsEnd(Call call, long nanos, String host, List<InetAddress> addresses) {}

  /** Connecting to {@code address}: the server, a proxy, or a Unix domain socket. */
  default void connectStart(Call call, long nanos, SocketAddress address) {}

  default void connectEnd(Call call, long nanos, SocketAddress address) {}

  default void connectFailed(Call call, long nanos, SocketAddress address, Throwable cause) {}

  default void tlsStart(Call call, long nanos) {}

  /** The TLS handshake completed: protocol, cipher and the server's certificates in {@code session}; {@code alpn} may be null. */
  default void tlsEnd(Call call, long nanos, SSLSession session, String alpn) {}

  /**
   * The handshake that {@code tlsEnd} (called next) reports resumed an earlier session, so the
   * server's certificate chain was not sent and verified again (pins are still checked). Resumed
   * means the session came from the client's cache: a TLS 1.2 session id or ticket, or a TLS 1.3
   * pre-shared key from a ticket; a full handshake is not reported here.
   *
   * {@snippet :
   * EventListener resumption = new EventListener() {
   *   @Override
   *   public void tlsResumed(Call call, long nanos, SSLSession session) {
   *     resumedHandshakes.increment();
   *   }
   * };
   * }
   */
  default void tlsResumed(Call call, long nanos, SSLSession session) {}

  /**
   * The call has a connection: its id and protocol, whether it carried an exchange before, and how long the
   * call waited for it (connecting included).
   *
   * {@snippet :
   * EventListener poolWaits = new EventListener() {
   *   @Override
   *   public void connectionAcquired(Call call, long nanos, AcquiredConnection connection) {
   *     if (!connection.reused()) {
   *       System.out.println(connection.version() + " connection after " + connection.waited().toMillis() + " ms");
   *     }
   *   }
   * };
   * }
   */
  default void connectionAcquired(Call call, long nanos, AcquiredConnection connection) {}

  /** The call no longer uses the connection (its response ended or was closed). */
  default void connectionReleased(Call call, long nanos, long connectionId) {}

  /** The request head was written to the connection; {@code streamId} is the HTTP/2 stream, 0 on HTTP/1.1. */
  default void requestHeadersSent(Call call, long nanos, int streamId) {}

  /** The request body was written: {@code bytes} long, or -1 for a streamed body of unknown length. */
  default void requestBodySent(Call call, long nanos, long bytes) {}

  default void responseHeadersReceived(Call call, long nanos, ResponseHead head) {}

  /** The response body ended after {@code bytes} (as they came off the wire, before decompression). */
  default void responseBodyReceived(Call call, long nanos, long bytes) {}

  /** A redirect is followed from {@code response} to {@code next}. */
  default void redirect(Call call, long nanos, ResponseHead response, Request next) {}

  /** The current hop is tried again, as {@code retry} says. */
  default void retry(Call call, long nanos, RetryPolicy.Retry retry) {}

  /** A WebSocket this call's handshake opened is open (the call ends with its 101). */
  default void webSocketOpen(Call call, long nanos, WebSocket webSocket) {}

  /** A whole WebSocket message arrived: text or binary, {@code bytes} long (after decompression). */
  default void webSocketMessage(Call call, long nanos, boolean text, long bytes) {}

  /** The WebSocket ended: with the peer's close {@code code} and {@code reason}, or with {@code failure} (then code is -1). */
  default void webSocketClosed(Call call, long nanos, int code, String reason, HttpException failure) {}

  /** A server-sent event was read from this call's event stream. */
  default void serverSentEvent(Call call, long nanos, ServerSentEvent event) {}

  /** The event stream reconnected ({@link EventStream.Reconnect}); {@code reconnects} counts them. */
  default void eventStreamReconnected(Call call, long nanos, int reconnects) {}
}
