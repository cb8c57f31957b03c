package dev.strand.internal.events;

import dev.strand.EventListener;
import dev.strand.HttpException;
import dev.strand.Request;
import dev.strand.ResponseHead;
import dev.strand.RetryPolicy;
import dev.strand.Version;
import java.net.InetAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import javax.net.ssl.SSLSession;

/**
 * One call's side of its client's {@link EventListener}: stamps each event with the time and hands it to
 * the client's {@link ListenerGuard}, which keeps a listener that throws or blocks from touching the call. It
 * travels with the call's requests as a tag, so the transport finds it with {@link #of(Request)}; a call
 * without a listener has none, and every event site costs one null check.
 */
public final class CallEvents implements EventListener.Call {
  private static final AtomicLong IDS = new AtomicLong();

  private final ListenerGuard guard;
  /** Assigned when first asked for: a shared counter per call would cost every call, listened to or not. */
  private volatile long id;
  private final long startNanos = System.nanoTime();
  private volatile Request request;
  private volatile int attempt = 1;
  private volatile long acquireStartNanos;
  private volatile long connectionId;

  /** @param guard the client's listener, shared by its calls */
  public CallEvents(ListenerGuard guard) {
    this.guard = guard;
  }

  /** The events of the call {@code request} belongs to, or {@code null} when its client has no listener. */
  public static CallEvents of(Request request) {
    return request == null ? null : request.tag(CallEvents.class);
  }

  @Override
  public long id() {
    long v = id;
    if (v == 0) {
      synchronized (this) {
        if (id == 0) {
          id = IDS.incrementAndGet();
        }
        v = id;
      }
    }
    return v;
  }

  @Override
  public Request request() {
    return request;
  }

  @Override
  public int attempt() {
    return attempt;
  }

  @Override
  public long startNanos() {
    return startNanos;
  }

  public void attempt(int attempt) {
    this.attempt = attempt;
  }

  private void emit(long nanos, Consumer<EventListener> event) {
    guard.deliver(nanos, event);
  }

  /** The call starts with {@code request}, which carries these events as its tag. */
  public void callStart(Request request) {
    this.request = request;
    long t = System.nanoTime();
    emit(t, l -> l.callStart(this, t));
  }

  public void callEnd() {
    long t = System.nanoTime();
    emit(t, l -> l.callEnd(this, t));
  }

  public void callFailed(Throwable failure) {
    long t = System.nanoTime();
    HttpException e = failure instanceof HttpException he ? he
        : new dev.strand.TransportException(String.valueOf(failure), request, failure);
    emit(t, l -> l.callFailed(this, t, e));
  }

  public void connectionAcquireStart() {
    long t = System.nanoTime();
    acquireStartNanos = t;
    emit(t, l -> l.connectionAcquireStart(this, t));
  }

  public void dnsStart(String host) {
    long t = System.nanoTime();
    emit(t, l -> l.dnsStart(this, t, host));
  }

  public void dnsEnd(String host, List<InetAddress> addresses) {
    long t = System.nanoTime();
    emit(t, l -> l.dnsEnd(this, t, host, addresses));
  }

  public void connectStart(SocketAddress address) {
    long t = System.nanoTime();
    emit(t, l -> l.connectStart(this, t, address));
  }

  public void connectEnd(SocketAddress address) {
    long t = System.nanoTime();
    emit(t, l -> l.connectEnd(this, t, address));
  }

  public void connectFailed(SocketAddress address, Throwable cause) {
    long t = System.nanoTime();
    emit(t, l -> l.connectFailed(this, t, address, cause));
  }

  public void tlsStart() {
    long t = System.nanoTime();
    emit(t, l -> l.tlsStart(this, t));
  }

  public void tlsResumed(SSLSession session) {
    long t = System.nanoTime();
    emit(t, l -> l.tlsResumed(this, t, session));
  }

  public void tlsEnd(SSLSession session, String alpn) {
    long t = System.nanoTime();
    emit(t, l -> l.tlsEnd(this, t, session, alpn));
  }

  public void connectionAcquired(long connectionId, Version version, boolean reused) {
    this.connectionId = connectionId;
    long t = System.nanoTime();
    long waited = acquireStartNanos == 0 ? 0 : t - acquireStartNanos;
    EventListener.AcquiredConnection connection =
        EventListener.AcquiredConnection.of(connectionId, version, reused, Duration.ofNanos(waited));
    emit(t, l -> l.connectionAcquired(this, t, connection));
  }

  /** The current exchange no longer uses the connection it acquired last. */
  public void connectionReleased() {
    long t = System.nanoTime();
    long id = connectionId;
    if (id != 0) {
      emit(t, l -> l.connectionReleased(this, t, id));
    }
  }

  public void requestHeadersSent(int streamId) {
    long t = System.nanoTime();
    emit(t, l -> l.requestHeadersSent(this, t, streamId));
  }

  public void requestBodySent(long bytes) {
    long t = System.nanoTime();
    emit(t, l -> l.requestBodySent(this, t, bytes));
  }

  public void responseHeadersReceived(ResponseHead head) {
    long t = System.nanoTime();
    emit(t, l -> l.responseHeadersReceived(this, t, head));
  }

  public void responseBodyReceived(long bytes) {
    long t = System.nanoTime();
    emit(t, l -> l.responseBodyReceived(this, t, bytes));
  }

  public void redirect(ResponseHead response, Request next) {
    long t = System.nanoTime();
    emit(t, l -> l.redirect(this, t, response, next));
  }

  public void webSocketOpen(dev.strand.WebSocket ws) {
    long t = System.nanoTime();
    emit(t, l -> l.webSocketOpen(this, t, ws));
  }

  public void webSocketMessage(boolean text, long bytes) {
    long t = System.nanoTime();
    emit(t, l -> l.webSocketMessage(this, t, text, bytes));
  }

  public void webSocketClosed(int code, String reason, HttpException failure) {
    long t = System.nanoTime();
    emit(t, l -> l.webSocketClosed(this, t, code, reason, failure));
  }

  public void serverSentEvent(dev.strand.ServerSentEvent event) {
    long t = System.nanoTime();
    emit(t, l -> l.serverSentEvent(this, t, event));
  }

  public void eventStreamReconnected(int reconnects) {
    long t = System.nanoTime();
    emit(t, l -> l.eventStreamReconnected(this, t, reconnects));
  }

  public void retry(RetryPolicy.Retry retry) {
    long t = System.nanoTime();
    emit(t, l -> l.retry(this, t, retry));
  }
}
