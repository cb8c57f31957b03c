package dev.strand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.peers.Peers;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** HTTP/1.1 and h2c over Unix domain sockets, against nginx listening on them (bin/test starts it). */
@ExtendWith(NettyLeakDetectorExtension.class)
class UnixSocketTest {
  private static Path socket(String env) {
    return Path.of(Peers.env(env));
  }

  @Test
  void http11OverASocketPathWithTheUrlNamingTheOrigin() {
    try (Client client = Client.builder().unixSocket(socket("STRAND_NGINX_SOCKET")).build()) {
      Response r = client.get("http://localhost/big.bin");
      assertEquals(200, r.status());
      assertEquals(Version.HTTP_1_1, r.version());
      assertArrayEquals(Payloads.BIG, r.bytes());
      List<CompletableFuture<Response>> many = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        many.add(client.async().get("http://localhost/small.json"));
      }
      for (CompletableFuture<Response> f : many) {
        assertArrayEquals(Payloads.SMALL, f.join().bytes());
      }
      Response posted = client.post("http://localhost/status/204", RequestBody.of("x"));
      assertEquals(204, posted.status());
    }
  }

  @Test
  void nioDomainSocketsWhereEpollIsNotUsed() {
    NettyTransport nio = NettyTransport.builder().preferNative(false).unixSocket(socket("STRAND_NGINX_SOCKET")).build();
    try (Client client = Client.builder().transport(nio).build()) {
      assertArrayEquals(Payloads.SMALL, client.get("http://localhost/small.json").bytes());
      assertEquals("nio", client.stats().transport());
    }
  }

  @Test
  void h2cByPriorKnowledgeOverASocket() {
    try (Client client = Client.builder().unixSocket(socket("STRAND_NGINX_H2C_SOCKET"))
        .version(VersionPolicy.HTTP_2_PRIOR_KNOWLEDGE).build()) {
      Response r = client.get("http://localhost/small.json");
      assertEquals(Version.HTTP_2, r.version());
      assertArrayEquals(Payloads.SMALL, r.bytes());
    }
  }

  @Test
  void aMissingSocketIsAConnectExceptionNamingIt(@TempDir Path dir) {
    Path missing = dir.resolve("nobody.sock");
    try (Client client = Client.builder().unixSocket(missing).build()) {
      ConnectException e = assertThrows(ConnectException.class, () -> client.get("http://localhost/"));
      assertTrue(e.getMessage().contains("unix socket " + missing), e.getMessage());
    }
    NettyTransport nio = NettyTransport.builder().preferNative(false).unixSocket(missing).build();
    try (Client client = Client.builder().transport(nio).build()) {
      ConnectException e = assertThrows(ConnectException.class, () -> client.get("http://localhost/"));
      assertTrue(e.getMessage().contains("unix socket " + missing), e.getMessage());
    }
  }

  @Test
  void aSocketAndAProxyOrATransportDoNotMix() {
    assertThrows(IllegalStateException.class,
        () -> NettyTransport.builder().unixSocket(Path.of("/x.sock")).proxy(Proxy.http("http://127.0.0.1:3128")).build());
    try (NettyTransport t = NettyTransport.create()) {
      assertThrows(IllegalStateException.class, () -> Client.builder().transport(t).unixSocket(Path.of("/x.sock")).build());
    }
  }
}
