package dev.strand.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.Dns;
import dev.strand.Response;
import dev.strand.Tls;
import dev.strand.Version;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * DNS over HTTPS against Unbound (bin/test starts it with the static zone {@code strand.test}, HTTP/2 with
 * the test PKI's certificate): both families of a name, unknown names, and a name whose first
 * address is black-holed, all resolved over HTTPS and then connected to.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class UnboundDohTest {
  private static Client resolverClient() {
    return Client.builder().tls(Tls.builder().trustPem(Path.of(Peers.env("STRAND_TLS_CA"))).build()).build();
  }

  private static Dns unbound(Client doh) {
    return Dns.overHttps(doh, URI.create(Peers.env("STRAND_UNBOUND_DOH_URL")));
  }

  @Test
  void bothFamiliesOfANameComeBackOverHttp2() throws Exception {
    List<InetAddress> both = List.of(InetAddress.getByName("::1"), InetAddress.getByName("127.0.0.1"));
    try (Client doh = resolverClient()) {
      assertEquals(both, unbound(doh).lookup("dual.strand.test"));
      assertEquals(List.of(InetAddress.getByName("127.0.0.1")), unbound(doh).lookup("v4.strand.test"));
      Response probe = doh.get(Peers.env("STRAND_UNBOUND_DOH_URL") + "?dns=AAABAAABAAAAAAAAAnY0BnN0cmFuZAR0ZXN0AAABAAE");
      assertEquals(Version.HTTP_2, probe.version(), "Unbound speaks DNS over HTTPS on HTTP/2");
    }
  }

  @Test
  void unknownNamesAndMissingFamiliesAreUnknownHosts() {
    try (Client doh = resolverClient()) {
      UnknownHostException none = assertThrows(UnknownHostException.class, () -> unbound(doh).lookup("nosuch.strand.test"));
      assertTrue(none.getMessage().startsWith("nosuch.strand.test: no address (DNS over HTTPS"), none.getMessage());
      UnknownHostException v6 = assertThrows(UnknownHostException.class,
          () -> unbound(doh).ipv6Only().lookup("v4.strand.test"));
      assertTrue(v6.getMessage().startsWith("v4.strand.test has no IPv6 address"), v6.getMessage());
    }
  }

  @Test
  void aNameResolvedOverHttpsIsConnectedToAcrossItsAddresses() {
    try (BlackHole hole = BlackHole.create();
        Client doh = resolverClient();
        TestServer server = TestServer.start();
        Client client = Client.builder().dns(unbound(doh)).build()) {
      assertEquals(200, client.get("http://dual.strand.test:" + server.port() + "/small").status());
      long start = System.nanoTime();
      assertEquals(200, client.get("http://failover.strand.test:" + server.port() + "/small").status());
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(millis < 250 + 750, "the black-holed IPv6 address costs the attempt delay, no more: " + millis + " ms");
      assertEquals(List.of(), hole.pendingConnects());
    }
  }
}
