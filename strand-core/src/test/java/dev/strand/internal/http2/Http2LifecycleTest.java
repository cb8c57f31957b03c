package dev.strand.internal.http2;

import dev.strand.spi.StreamingResponses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.ClientStats;
import dev.strand.Limits;
import dev.strand.NettyTransport;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.StreamingResponse;
import dev.strand.Timeout;
import dev.strand.Version;
import dev.strand.VersionPolicy;
import dev.strand.testkit.NettyLeakDetectorExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** HTTP/2 connection lifecycle against a scripted server: GOAWAY retries, PING liveness. */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http2LifecycleTest {
  static final Timeout TIMEOUT = Timeout.of(Duration.ofSeconds(10));

  static NettyTransport h2c() {
    return NettyTransport.builder().version(VersionPolicy.HTTP_2_PRIOR_KNOWLEDGE)
        .limits(Limits.ofConnections(4).withKeepAliveExpiry(Duration.ofSeconds(60))).ioThreads(1).build();
  }

  static String body(NettyTransport t, CompletableFuture<StreamingResponse> f) throws Exception {
    StreamingResponse r = f.get(20, TimeUnit.SECONDS);
    assertEquals(200, r.status());
    assertEquals(Version.HTTP_2, r.version());
    return new String(StreamingResponses.body(r).readAll(1000).get(20, TimeUnit.SECONDS), StandardCharsets.US_ASCII);
  }

  @Test
  void streamsAboveGoAwaysLastStreamIdAreRetriedOnANewConnectionEvenPosts() throws Exception {
    try (ScriptedH2Server server = new ScriptedH2Server(4, true); NettyTransport t = h2c()) {
      List<CompletableFuture<StreamingResponse>> all = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        Request.Builder b = Request.builder(i % 2 == 0 ? "GET" : "POST", server.url("/x/" + i)).timeout(TIMEOUT);
        if (i % 2 == 1) {
          b.body(RequestBody.of("not idempotent"));
        }
        all.add(t.send(b.build()));
      }
      List<String> served = new ArrayList<>();
      for (CompletableFuture<StreamingResponse> f : all) {
        served.add(body(t, f));
      }
      assertEquals(2, served.stream().filter("conn=1"::equals).count(), served.toString());
      assertEquals(2, served.stream().filter("conn=2"::equals).count(), "the two unprocessed went to a new connection");
      assertEquals(2, server.connections.get());
      awaitStats(t, s -> s.open() == 1, "the connection that sent GOAWAY is closed once its streams are done");
    }
  }

  @Test
  void anIdleConnectionWhosePeerIgnoresPingsIsClosed() throws Exception {
    Duration before = Http2Connection.PING_IDLE;
    Http2Connection.PING_IDLE = Duration.ofMillis(200);
    try (ScriptedH2Server server = new ScriptedH2Server(0, false); NettyTransport t = h2c()) {
      assertEquals("conn=1", body(t, t.send(Request.builder("GET", server.url("/a")).timeout(TIMEOUT).build())));
      awaitStats(t, s -> s.open() == 0, "a connection that does not answer PING is closed");
      assertTrue(server.pings.get() >= 1);
    } finally {
      Http2Connection.PING_IDLE = before;
    }
  }

  @Test
  void anIdleConnectionThatAnswersPingsStaysOpen() throws Exception {
    Duration before = Http2Connection.PING_IDLE;
    Http2Connection.PING_IDLE = Duration.ofMillis(200);
    try (ScriptedH2Server server = new ScriptedH2Server(0, true); NettyTransport t = h2c()) {
      assertEquals("conn=1", body(t, t.send(Request.builder("GET", server.url("/a")).timeout(TIMEOUT).build())));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (server.pings.get() < 3 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertTrue(server.pings.get() >= 3, "pings: " + server.pings.get());
      assertEquals(1, t.stats().idle());
      assertEquals("conn=1", body(t, t.send(Request.builder("GET", server.url("/b")).timeout(TIMEOUT).build())));
      assertEquals(1, server.connections.get());
    } finally {
      Http2Connection.PING_IDLE = before;
    }
  }

  private static void awaitStats(NettyTransport t, Predicate<ClientStats> ok, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!ok.test(t.stats())) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(what + ": " + t.stats());
      }
      Thread.sleep(10);
    }
  }
}
