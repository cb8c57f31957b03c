package dev.strand.http3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.Client;
import dev.strand.Response;
import dev.strand.Version;
import dev.strand.VersionPolicy;
import dev.strand.testkit.Http3TestServer;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Many requests at once share one QUIC connection, as far as the server's stream limit allows. */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http3ConcurrencyTest {
  @Test
  void hundredConcurrentStreamsOnOneConnection() {
    try (Http3TestServer server = Http3Fixture.server(100); Client client = Http3Fixture.client(VersionPolicy.HTTP_3_ONLY)) {
      client.get(server.url("/small")); // the connection is up, its capacity known
      for (int round = 0; round < 3; round++) {
        List<CompletableFuture<Response>> all = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
          all.add(client.async().get(server.url(i % 10 == 0 ? "/bytes/200000" : "/delay/50")));
        }
        for (int i = 0; i < 100; i++) {
          Response r = all.get(i).join();
          assertEquals(Version.HTTP_3, r.version());
          assertArrayEquals(i % 10 == 0 ? Payloads.bytes(200_000) : Payloads.SMALL, r.bytes());
        }
      }
      assertEquals(1, client.stats().connectionsOpened());
      assertEquals(1, server.connections());
    }
  }

  @Test
  void theServersStreamLimitBoundsTheConnection() {
    try (Http3TestServer server = Http3Fixture.server(10); Client client = Http3Fixture.client(VersionPolicy.HTTP_3_ONLY)) {
      client.get(server.url("/small"));
      List<CompletableFuture<Response>> all = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        all.add(client.async().get(server.url("/delay/20")));
      }
      for (CompletableFuture<Response> f : all) {
        assertArrayEquals(Payloads.SMALL, f.join().bytes());
      }
      // 10 streams each: the pool opened more connections rather than overrunning the server's limit.
      long opened = client.stats().connectionsOpened();
      // Every connection the client used reached the server. The server may count one more: under load, a
      // handshake can finish after the client gave up on it, and that connection is closed without use.
      assertEquals(true, server.connections() >= opened, "server " + server.connections() + ", client " + opened);
      assertEquals(true, opened >= 2 && opened <= 6, "connections opened: " + opened);
    }
  }
}
