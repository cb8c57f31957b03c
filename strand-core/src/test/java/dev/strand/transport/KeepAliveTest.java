package dev.strand.transport;

import dev.strand.spi.StreamingResponses;
import static dev.strand.transport.TransportFixture.fetch;
import static dev.strand.transport.TransportFixture.get;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.ClientStats;
import dev.strand.NettyTransport;
import dev.strand.Response;
import dev.strand.Version;
import dev.strand.VersionPolicy;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServerExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

@ExtendWith(NettyLeakDetectorExtension.class)
class KeepAliveTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @Test
  void sequentialRequestsReuseOneConnection() throws Exception {
    server.get().resetStats();
    try (NettyTransport t = TransportFixture.transport(4)) {
      for (int i = 0; i < 20; i++) {
        Response r = fetch(t, get(server.get(), "/small"));
        assertEquals(200, r.status());
        assertEquals(Version.HTTP_1_1, r.version());
        assertArrayEquals(Payloads.SMALL, r.bytes());
      }
      ClientStats s = t.stats();
      assertEquals(1, s.connectionsOpened());
      assertEquals(1, s.idle());
      assertEquals(0, s.inUse());
      assertEquals(1, server.get().acceptedConnections());
    }
  }

  @Test
  void aStreamedBodyEndsForItsReaderOnlyOnceItsConnectionIsFree() throws Exception {
    // The reader reads on its own thread. Had it seen the end before the release (HTTP/1.1 settles the
    // connection with one more read first when the last read filled its buffer, as large bodies' reads
    // do), its next request would have found the connection busy and opened another: Spring's WebClient,
    // which streams, did so now and then.
    try (dev.strand.Client client = dev.strand.Client.builder().version(VersionPolicy.HTTP_1_1).build()) {
      for (int i = 0; i < 200; i++) {
        try (dev.strand.StreamingResponse r = client.stream(dev.strand.Request.get(server.get().url("/bytes/200000")))) {
          assertEquals(200_000, r.body().readAllBytes().length);
          assertEquals(0, client.stats().inUse(), "in use after its body ended, at request " + i);
        }
      }
      assertEquals(1, client.stats().connectionsOpened());
    }
  }

  @Test
  void bigBodyOfKnownLength() throws Exception {
    try (NettyTransport t = TransportFixture.transport(4)) {
      Response r = fetch(t, get(server.get(), "/big"));
      assertArrayEquals(Payloads.BIG, r.bytes());
      Response again = fetch(t, get(server.get(), "/bytes/300000"));
      assertArrayEquals(Payloads.bytes(300000), again.bytes());
      assertEquals(1, t.stats().connectionsOpened());
    }
  }

  @Test
  void chunkedResponseIsReassembled() throws Exception {
    try (NettyTransport t = TransportFixture.transport(4)) {
      Response r = fetch(t, get(server.get(), "/chunked/100000"));
      assertEquals(100000, r.bytes().length);
      assertArrayEquals(Payloads.bytes(100000), r.bytes());
      assertEquals("epoll", t.stats().transport());
    }
  }

  @Test
  void nioWorksToo() throws Exception {
    try (NettyTransport t = NettyTransport.builder().preferNative(false).ioThreads(1).build()) {
      assertEquals("nio", t.stats().transport());
      assertEquals("none", t.stats().tlsEngine());
      assertArrayEquals(Payloads.SMALL, fetch(t, get(server.get(), "/small")).bytes());
      assertArrayEquals(Payloads.SMALL, fetch(t, get(server.get(), "/small")).bytes());
      assertEquals(1, t.stats().connectionsOpened());
    }
  }

  @Test
  void concurrentRequestsShareAPoolOfTheirSize() throws Exception {
    server.get().resetStats();
    try (NettyTransport t = TransportFixture.transport(8)) {
      List<CompletableFuture<byte[]>> futures = new ArrayList<>();
      for (int round = 0; round < 5; round++) {
        for (int i = 0; i < 40; i++) {
          futures.add(t.send(get(server.get(), "/small")).thenCompose(r -> StreamingResponses.body(r).readAll(1 << 20)));
        }
        for (var f : futures) {
          assertArrayEquals(Payloads.SMALL, f.get(20, TimeUnit.SECONDS));
        }
        futures.clear();
      }
      ClientStats s = TransportFixture.awaitQuiet(t);
      assertEquals(8, s.connectionsOpened(), "never more connections than the pool allows");
      assertEquals(8, s.idle());
    }
  }
}
