package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServerExtension;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The event listener: which events a call produces, in which order, and a listener that throws. */
@ExtendWith(NettyLeakDetectorExtension.class)
class EventListenerTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();
  @RegisterExtension
  static final TestServerExtension tls = Http2Test.tlsServer();
  @RegisterExtension
  static final TestServerExtension h2c = Http2Test.h2cServer();

  /** Records each event as a short line; checks that timestamps never go backwards within a call. */
  static final class Recorder implements EventListener {
    final List<String> events = new CopyOnWriteArrayList<>();
    long last;

    private void add(Call call, long nanos, String what) {
      assertTrue(nanos >= call.startNanos(), what);
      synchronized (this) {
        last = Math.max(last, nanos);
      }
      events.add(what);
    }

    List<String> names() {
      return events.stream().map(e -> e.split(" ")[0]).toList();
    }

    @Override public void callStart(Call call, long nanos) { add(call, nanos, "callStart"); }
    @Override public void callEnd(Call call, long nanos) { add(call, nanos, "callEnd"); }
    @Override public void callFailed(Call call, long nanos, HttpException failure) {
      add(call, nanos, "callFailed " + failure.getClass().getSimpleName());
    }
    @Override public void connectionAcquireStart(Call call, long nanos) { add(call, nanos, "acquireStart"); }
    @Override public void dnsStart(Call call, long nanos, String host) { add(call, nanos, "dnsStart " + host); }
    @Override public void dnsEnd(Call call, long nanos, String host, List<InetAddress> addresses) {
      add(call, nanos, "dnsEnd " + host + " " + !addresses.isEmpty());
    }
    @Override public void connectStart(Call call, long nanos, SocketAddress address) { add(call, nanos, "connectStart"); }
    @Override public void connectEnd(Call call, long nanos, SocketAddress address) { add(call, nanos, "connectEnd"); }
    @Override public void connectFailed(Call call, long nanos, SocketAddress address, Throwable cause) {
      add(call, nanos, "connectFailed");
    }
    @Override public void tlsStart(Call call, long nanos) { add(call, nanos, "tlsStart"); }
    @Override public void tlsEnd(Call call, long nanos, SSLSession session, String alpn) {
      add(call, nanos, "tlsEnd " + session.getProtocol() + " " + alpn);
    }
    @Override public void connectionAcquired(Call call, long nanos, AcquiredConnection connection) {
      assertTrue(connection.id() != 0 && !connection.waited().isNegative());
      add(call, nanos, "acquired " + connection.version() + " reused=" + connection.reused());
    }
    @Override public void connectionReleased(Call call, long nanos, long id) { add(call, nanos, "released"); }
    @Override public void requestHeadersSent(Call call, long nanos, int streamId) { add(call, nanos, "headersSent " + streamId); }
    @Override public void requestBodySent(Call call, long nanos, long bytes) { add(call, nanos, "bodySent " + bytes); }
    @Override public void responseHeadersReceived(Call call, long nanos, ResponseHead head) {
      add(call, nanos, "responseHeaders " + head.status());
    }
    @Override public void responseBodyReceived(Call call, long nanos, long bytes) { add(call, nanos, "responseBody " + bytes); }
    @Override public void redirect(Call call, long nanos, ResponseHead response, Request next) {
      add(call, nanos, "redirect " + response.status() + " " + next.url().getPath());
    }
    @Override public void retry(Call call, long nanos, RetryPolicy.Retry retry) {
      add(call, nanos, "retry " + retry.nextAttempt() + " attempt=" + call.attempt());
    }
    @Override public void webSocketOpen(Call call, long nanos, WebSocket webSocket) { add(call, nanos, "wsOpen"); }
    @Override public void webSocketMessage(Call call, long nanos, boolean text, long bytes) {
      add(call, nanos, "wsMessage " + (text ? "text " : "binary ") + bytes);
    }
    @Override public void webSocketClosed(Call call, long nanos, int code, String reason, HttpException failure) {
      add(call, nanos, "wsClosed " + code);
    }
    @Override public void serverSentEvent(Call call, long nanos, ServerSentEvent event) { add(call, nanos, "sse " + event.id()); }
  }

  @Test
  void aFirstCallConnectsAndASecondReusesInOrder() {
    Recorder rec = new Recorder();
    try (Client client = Client.builder().eventListener(rec).build()) {
      client.get(server.url("/small"));
      assertEquals(List.of("callStart", "acquireStart", "connectStart", "connectEnd", "acquired HTTP/1.1 reused=false",
          "headersSent 0", "responseHeaders 200", "responseBody " + Payloads.SMALL.length, "released", "callEnd"), rec.events);
      rec.events.clear();
      client.post(server.url("/echo"), RequestBody.of("12345"));
      assertEquals(List.of("callStart", "acquireStart", "acquired HTTP/1.1 reused=true", "headersSent 0", "bodySent 5",
          "responseHeaders 200"), rec.events.subList(0, 6));
      assertEquals("callEnd", rec.events.get(rec.events.size() - 1));
    }
  }

  @Test
  void aHostNameIsResolvedAndTlsAndHttp2AreSeen() {
    Recorder rec = new Recorder();
    try (Client client = Client.builder().eventListener(rec).tls(SharedTestPki.trustTestCa(Tls.Engine.AUTO))
        .version(VersionPolicy.HTTP_2).build()) {
      String url = tls.url("/small").replace("127.0.0.1", "localhost");
      assertEquals(200, client.get(url).status());
    }
    List<String> names = rec.names();
    assertTrue(names.indexOf("dnsStart") < names.indexOf("dnsEnd") && names.indexOf("dnsEnd") < names.indexOf("connectStart"),
        rec.events.toString());
    assertTrue(rec.events.contains("dnsEnd localhost true"), rec.events.toString());
    assertTrue(names.indexOf("connectEnd") < names.indexOf("tlsStart") || names.indexOf("tlsStart") < names.indexOf("tlsEnd"),
        rec.events.toString());
    assertTrue(rec.events.stream().anyMatch(e -> e.startsWith("tlsEnd TLSv1.3 h2")), rec.events.toString());
    assertTrue(rec.events.contains("acquired HTTP/2 reused=false"), rec.events.toString());
    assertTrue(rec.events.contains("headersSent 3"), "the first client stream of an h2 connection is 3 after Netty's upgrade stream, or 1: "
        + rec.events);
  }

  @Test
  void anH2cStreamIdIsReported() {
    Recorder rec = new Recorder();
    try (Client client = Client.builder().eventListener(rec).version(VersionPolicy.HTTP_2_PRIOR_KNOWLEDGE).build()) {
      client.get(h2c.url("/small"));
      client.get(h2c.url("/small"));
    }
    List<String> sent = rec.events.stream().filter(e -> e.startsWith("headersSent")).toList();
    assertEquals(2, sent.size(), rec.events.toString());
    assertFalse(sent.get(0).equals(sent.get(1)), "two streams: " + sent);
    assertTrue(rec.events.contains("acquired HTTP/2 reused=true"), rec.events.toString());
  }

  @Test
  void redirectsAndRetriesAreBetweenAttempts() {
    Recorder rec = new Recorder();
    try (Client client = Client.builder().eventListener(rec).followRedirects(true).build()) {
      client.get(server.url("/redirect/1"));
    }
    assertTrue(rec.events.contains("redirect 302 /echo"), rec.events.toString());
    assertEquals(2, rec.names().stream().filter("responseHeaders"::equals).count());

    Recorder retries = new Recorder();
    AtomicInteger n = new AtomicInteger();
    MockTransport mock = MockTransport.of(r -> Response.builder(n.incrementAndGet() < 3 ? 503 : 200).build());
    try (Client client = Client.builder().transport(mock).eventListener(retries)
        .retry(RetryPolicy.builder().backoff(Duration.ofMillis(1), Duration.ofMillis(2)).build()).build()) {
      client.get("http://127.0.0.1/x");
    }
    assertEquals(List.of("retry 2 attempt=1", "retry 3 attempt=2"),
        retries.events.stream().filter(e -> e.startsWith("retry")).toList());
    assertEquals("callEnd", retries.events.get(retries.events.size() - 1));
  }

  @Test
  void aConnectFailureEndsWithCallFailed() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Recorder rec = new Recorder();
    try (Client client = Client.builder().eventListener(rec).build()) {
      int p = port;
      assertThrows(ConnectException.class, () -> client.get("http://127.0.0.1:" + p + "/"));
    }
    assertEquals(List.of("callStart", "acquireStart", "connectStart", "connectFailed", "callFailed ConnectException"),
        rec.events);
  }

  @Test
  void aStreamedCallEndsWhenItsBodyIsClosed() {
    Recorder rec = new Recorder();
    try (Client client = Client.builder().eventListener(rec).build()) {
      StreamingResponse r = client.stream(Request.get(server.url("/bytes/100000")));
      assertFalse(rec.events.contains("callEnd"));
      r.close();
      assertEquals(List.of("released", "callEnd"), rec.events.subList(rec.events.size() - 2, rec.events.size()));
      assertFalse(rec.names().contains("responseBody"), "closed early: no body event");
    }
  }

  @Test
  void aListenerThatThrowsDoesNotBreakTheCall() {
    AtomicInteger calls = new AtomicInteger();
    EventListener broken = new EventListener() {
      @Override
      public void callStart(Call call, long nanos) {
        calls.incrementAndGet();
        throw new IllegalStateException("listener bug");
      }

      @Override
      public void responseHeadersReceived(Call call, long nanos, ResponseHead head) {
        throw new IllegalStateException("listener bug on the I/O thread");
      }
    };
    try (Client client = Client.builder().eventListener(broken).build()) {
      for (int i = 0; i < 3; i++) {
        assertEquals(200, client.get(server.url("/small")).status());
      }
      assertEquals(200, client.async().get(server.url("/small")).join().status());
    }
    assertEquals(4, calls.get(), "still called after throwing");
  }

  @Test
  void aListenerThatBlocksIsMovedOffTheThreadAndStillGetsEveryEventInOrder() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
    EventListener slow = new EventListener() {
      @Override
      public void callStart(Call call, long nanos) {
        seen.add("start " + call.id());
        if (closed.get()) {
          await(gate);
        }
      }

      @Override
      public void responseHeadersReceived(Call call, long nanos, ResponseHead head) {
        if (seen.size() == 1) {
          sleep(600); // on the I/O thread: enough for the watchdog to find it, on a busy machine too
        }
        if (closed.get()) {
          await(gate);
        }
      }

      @Override
      public void callEnd(Call call, long nanos) {
        seen.add("end " + call.id());
      }
    };
    try (Client client = Client.builder().eventListener(slow).limits(Limits.ofConnections(1)).build()) {
      assertEquals(200, client.get(server.url("/small")).status());
      closed.set(true);
      // Inline, the next call's callStart would never return while the gate is closed.
      List<java.util.concurrent.CompletableFuture<Response>> calls = new java.util.ArrayList<>();
      for (int i = 0; i < 5; i++) {
        calls.add(client.async().get(server.url("/small")));
      }
      for (var call : calls) {
        assertEquals(200, call.get(10, java.util.concurrent.TimeUnit.SECONDS).status());
      }
      assertEquals(1, seen.stream().filter(e -> e.startsWith("end")).count(),
          "the later calls' events wait behind the blocked listener: " + seen);
      gate.countDown();
      EventStreamTest.eventually(() -> seen.size() == 12, seen);
      for (String start : seen.stream().filter(e -> e.startsWith("start")).toList()) {
        assertTrue(seen.indexOf(start) < seen.indexOf(start.replace("start", "end")), "in order: " + seen);
      }
    } finally {
      gate.countDown();
    }
  }

  static void await(java.util.concurrent.CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void webSocketAndEventStreamEventsFollowTheirCall() throws Exception {
    Recorder rec = new Recorder();
    try (Client client = Client.builder().eventListener(rec).build()) {
      WebSocketRecorder listener = new WebSocketRecorder();
      WebSocket ws = client.websocket(server.url("/ws/echo").replace("http", "ws"), listener);
      ws.sendText("hello").get(5, java.util.concurrent.TimeUnit.SECONDS);
      assertEquals("hello", listener.messages.poll(10, java.util.concurrent.TimeUnit.SECONDS));
      ws.close(1000, "done").get(5, java.util.concurrent.TimeUnit.SECONDS);
      EventStreamTest.eventually(() -> rec.events.contains("wsClosed 1000"), rec.events);
      List<String> names = rec.names();
      assertTrue(names.contains("callEnd") && names.indexOf("wsOpen") < names.indexOf("wsMessage")
          && names.indexOf("wsMessage") < names.indexOf("wsClosed"), rec.events.toString());
      assertTrue(rec.events.contains("wsMessage text 5"), rec.events.toString());

      rec.events.clear();
      try (EventStream events = client.events(server.url("/sse?count=2"))) {
        while (events.next() != null) {
          // read them all
        }
      }
      assertTrue(rec.events.contains("sse 1") && rec.events.contains("sse 2"), rec.events.toString());
    }
  }
}
