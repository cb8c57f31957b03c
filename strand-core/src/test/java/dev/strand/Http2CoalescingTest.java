package dev.strand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServer;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * HTTP/2 connection coalescing (RFC 9113 9.1.1) against the testkit's h2 server, whose certificate covers
 * {@code api.strand.test} and {@code *.shared.strand.test}: names the resolver seam points at loopback.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http2CoalescingTest {
  private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

  private static Client client(Dns dns) {
    return Client.builder()
        .transport(NettyTransport.builder().tls(SharedTestPki.trustTestCa(Tls.Engine.JDK)).dns(dns).build()).build();
  }

  private static Dns toLoopback(String... names) {
    Map<String, List<InetAddress>> map = new java.util.HashMap<>();
    for (String name : names) {
      map.put(name, List.of(LOOPBACK));
    }
    return Dns.overrides(map, Dns.system());
  }

  @Test
  void namesAtTheSameAddressCoveredByTheCertificateShareOneConnection() {
    try (TestServer server = HttpsTest.tlsServer(true);
        Client client = client(toLoopback("api.strand.test", "a.shared.strand.test", "b.shared.strand.test"))) {
      for (String host : List.of("api.strand.test", "a.shared.strand.test", "b.shared.strand.test", "api.strand.test")) {
        Response r = client.get("https://" + host + ":" + server.port() + "/small");
        assertEquals(Version.HTTP_2, r.version());
        assertArrayEquals(Payloads.SMALL, r.bytes());
      }
      assertEquals(1, server.acceptedConnections(), "three names, one connection");
      assertEquals(1, server.tlsHandshakes());
    }
  }

  @Test
  void aNameTheCertificateDoesNotCoverGetsItsOwnConnection() {
    try (TestServer server = HttpsTest.tlsServer(true);
        Client client = client(toLoopback("api.strand.test", "other.strand.test"))) {
      client.get("https://api.strand.test:" + server.port() + "/small").bytes();
      // Shared, it would have been answered; on its own connection the handshake fails the host check.
      assertThrows(TlsException.class, () -> client.get("https://other.strand.test:" + server.port() + "/small"));
      client.get("https://127.0.0.1:" + server.port() + "/small").bytes(); // an IP literal is never coalesced
      client.get("https://localhost:" + server.port() + "/small").bytes(); // covered, and at the address: shared
      assertEquals(3, server.acceptedConnections());
    }
  }

  @Test
  void aNameResolvingElsewhereIsNotCoalesced() throws Exception {
    InetAddress elsewhere = InetAddress.getByName("127.0.0.2"); // the server listens on 127.0.0.1 only
    try (TestServer server = HttpsTest.tlsServer(true);
        Client client = client(Dns.overrides(Map.of("api.strand.test", List.of(LOOPBACK),
            "x.shared.strand.test", List.of(elsewhere, LOOPBACK), "y.shared.strand.test", List.of(elsewhere)),
            Dns.system()))) {
      client.get("https://api.strand.test:" + server.port() + "/small").bytes();
      // One of its addresses is the one the shared connection went to: shared, so 127.0.0.2 is never tried.
      assertArrayEquals(Payloads.SMALL, client.get("https://x.shared.strand.test:" + server.port() + "/small").bytes());
      // Only 127.0.0.2: a connection of its own, refused there.
      assertThrows(ConnectException.class, () -> client.get("https://y.shared.strand.test:" + server.port() + "/small"));
      assertEquals(1, server.acceptedConnections());
    }
  }

  @Test
  void a421OnASharedConnectionIsSentAgainOnAConnectionOfItsOwn() {
    try (TestServer server = HttpsTest.tlsServer(true);
        Client client = client(toLoopback("api.strand.test", "m.shared.strand.test"))) {
      client.get("https://api.strand.test:" + server.port() + "/small").bytes();
      Response r = client.get("https://m.shared.strand.test:" + server.port() + "/status/421");
      assertEquals(421, r.status(), "the testkit answers 421 on any connection: the second answer stands");
      assertEquals(2, server.acceptedConnections(), "sent again on a connection of its own");
      client.get("https://m.shared.strand.test:" + server.port() + "/small").bytes();
      assertEquals(2, server.acceptedConnections(), "and it keeps to its own from then on");
      assertEquals(2, client.stats().origins().size());
    }
  }
}
