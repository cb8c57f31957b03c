package dev.strand.transport;

import static dev.strand.transport.TransportFixture.fetch;
import static dev.strand.transport.TransportFixture.get;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.ClientStats;
import dev.strand.NettyTransport;
import dev.strand.Response;
import dev.strand.Version;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(NettyLeakDetectorExtension.class)
class KeepAliveTest {
  static TestServer server;

  @BeforeAll
  static void start() {
    server = TestServer.start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void sequentialRequestsReuseOneConnection() throws Exception {
    server.resetStats();
    try (NettyTransport t = TransportFixture.transport(4)) {
      for (int i = 0; i < 20; i++) {
        Response r = fetch(t, get(server, "/small"));
        assertEquals(200, r.status());
        assertEquals(Version.HTTP_1_1, r.version());
        assertArrayEquals(Payloads.SMALL, r.bytes());
      }
      ClientStats s = t.stats();
      assertEquals(1, s.connectionsOpened());
      assertEquals(1, s.idle());
      assertEquals(0, s.inUse());
      assertEquals(1, server.acceptedConnections());
    }
  }

  @Test
  void bigBodyOfKnownLength() throws Exception {
    try (NettyTransport t = TransportFixture.transport(4)) {
      Response r = fetch(t, get(server, "/big"));
      assertArrayEquals(Payloads.BIG, r.bytes());
      Response again = fetch(t, get(server, "/bytes/300000"));
      assertArrayEquals(Payloads.bytes(300000), again.bytes());
      assertEquals(1, t.stats().connectionsOpened());
    }
  }

  @Test
  void chunkedResponseIsReassembled() throws Exception {
    try (NettyTransport t = TransportFixture.transport(4)) {
      Response r = fetch(t, get(server, "/chunked/100000"));
      assertEquals(100000, r.bytes().length);
      assertArrayEquals(Payloads.bytes(100000), r.bytes());
      assertEquals("epoll", t.stats().transport());
    }
  }
}
