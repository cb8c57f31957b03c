package dev.strand.transport;

import static dev.strand.transport.TransportFixture.fetch;
import static dev.strand.transport.TransportFixture.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.strand.NettyTransport;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Connections the server closed while they sat in the pool. */
@ExtendWith(NettyLeakDetectorExtension.class)
class StaleConnectionTest {

  @Test
  void anIdleConnectionClosedByTheServerLeavesThePool() throws Exception {
    TestServer first = TestServer.start();
    int port = first.port();
    try (NettyTransport t = TransportFixture.transport(2)) {
      assertEquals(200, fetch(t, TransportFixture.get(first, "/small")).status());
      assertEquals(1, t.stats().idle());
      first.close(); // closes the idle connection: the pending read sees the FIN
      TransportFixture.awaitStats(t, s -> s.open() == 0);
      try (TestServer second = TestServer.builder().port(port).build()) {
        assertEquals(200, fetch(t, TransportFixture.get(second, "/small")).status());
        assertEquals(2, t.stats().connectionsOpened());
        assertEquals(1, second.acceptedConnections());
      }
    } finally {
      first.close();
    }
  }

  @Test
  void anIdempotentRequestIsRetriedOnceOnANewConnection() throws Exception {
    // The first connection answers once, then closes on the next request as if its keep-alive ran out.
    try (ScriptedServer server = new ScriptedServer((conn, n) -> conn == 0 && n > 0 ? null : ScriptedServer.OK);
        NettyTransport t = TransportFixture.transport(2)) {
      Request get = Request.builder("GET", server.url("/")).timeout(TransportFixture.TIMEOUT).build();
      assertEquals("ok", fetch(t, get).text());
      assertEquals("ok", fetch(t, get).text());
      assertEquals(2, t.stats().connectionsOpened(), "one retry on a new connection");
      assertEquals(2, server.accepted());
    }
  }

  @Test
  void aRetryIsOnlyOnce() throws Exception {
    // Every reused connection fails, and so does the retry's fresh one: the error surfaces.
    try (ScriptedServer server = new ScriptedServer((conn, n) -> conn == 0 && n == 0 ? ScriptedServer.OK : null);
        NettyTransport t = TransportFixture.transport(2)) {
      Request get = Request.builder("GET", server.url("/")).timeout(TransportFixture.TIMEOUT).build();
      assertEquals("ok", fetch(t, get).text());
      Throwable e = failure(t.send(get));
      assertInstanceOf(ProtocolException.class, e);
      assertEquals(2, t.stats().connectionsOpened());
      TransportFixture.awaitStats(t, s -> s.open() == 0);
    }
  }

  @Test
  void aPostIsNotRetried() throws Exception {
    try (ScriptedServer server = new ScriptedServer((conn, n) -> conn == 0 && n > 0 ? null : ScriptedServer.OK);
        NettyTransport t = TransportFixture.transport(2)) {
      Request get = Request.builder("GET", server.url("/")).timeout(TransportFixture.TIMEOUT).build();
      assertEquals("ok", fetch(t, get).text());
      Request post = Request.builder("POST", server.url("/")).body(RequestBody.of(new byte[0]))
          .timeout(TransportFixture.TIMEOUT).build();
      Throwable e = failure(t.send(post));
      assertInstanceOf(ProtocolException.class, e);
      assertEquals(1, t.stats().connectionsOpened());
    }
  }

  @Test
  void aPostWithAnIdempotencyKeyIsRetriedOnceOnANewConnection() throws Exception {
    // The one rule of Request.isIdempotent: the key makes a POST as safe to resend as a GET.
    try (ScriptedServer server = new ScriptedServer((conn, n) -> conn == 0 && n > 0 ? null : ScriptedServer.OK);
        NettyTransport t = TransportFixture.transport(2)) {
      Request get = Request.builder("GET", server.url("/")).timeout(TransportFixture.TIMEOUT).build();
      assertEquals("ok", fetch(t, get).text());
      Request post = Request.builder("POST", server.url("/")).header("Idempotency-Key", "\"k-1\"")
          .body(RequestBody.of(new byte[0])).timeout(TransportFixture.TIMEOUT).build();
      assertEquals("ok", fetch(t, post).text());
      assertEquals(2, t.stats().connectionsOpened(), "one resend on a new connection");
    }
  }
}
