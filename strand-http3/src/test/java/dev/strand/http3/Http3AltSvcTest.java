package dev.strand.http3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.Client;
import dev.strand.Response;
import dev.strand.Timeout;
import dev.strand.Version;
import dev.strand.VersionPolicy;
import dev.strand.testkit.Http3TestServer;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServer;
import dev.strand.testkit.tls.TestPki;
import java.net.DatagramSocket;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link VersionPolicy#HTTP_3_ALT_SVC}: TCP (HTTP/2 by ALPN) until a response advertises {@code h3}, then
 * HTTP/3; when QUIC fails or is slow the request goes over TCP unnoticed, and the endpoint is not
 * tried again for a while.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http3AltSvcTest {
  private static TestServer tcp;

  @BeforeAll
  static void start() {
    TestPki pki = TestPki.shared();
    tcp = TestServer.builder().tls(pki.server().cert(), pki.server().key()).http2(true).build();
  }

  @AfterAll
  static void stop() {
    tcp.close();
  }

  private static Client client(Duration connect) {
    return Http3Fixture.client(VersionPolicy.HTTP_3_ALT_SVC, Timeout.of(Duration.ofSeconds(20)).withConnect(connect));
  }

  @Test
  void upgradesToHttp3WhenAdvertised() {
    try (Http3TestServer h3 = Http3Fixture.server(100); Client client = client(Duration.ofSeconds(5))) {
      Response first = client.get(tcp.url("/alt-svc/" + h3.port()));
      assertEquals(Version.HTTP_2, first.version());
      assertEquals("h3=\":" + h3.port() + "\"; ma=60", first.headers().first("alt-svc"));
      Response second = client.get(tcp.url("/small"));
      assertEquals(Version.HTTP_3, second.version(), "the same origin, now over QUIC to the advertised port");
      assertArrayEquals(Payloads.SMALL, second.bytes());
      assertEquals(1, h3.connections());
    }
  }

  @Test
  void fallsBackToTcpWhenNothingAnswersOnUdp() throws Exception {
    int closed;
    try (DatagramSocket s = new DatagramSocket(0)) {
      closed = s.getLocalPort();
    }
    try (Client client = client(Duration.ofSeconds(2))) {
      assertEquals(Version.HTTP_2, client.get(tcp.url("/alt-svc/" + closed)).version());
      Http3Fixture.assertFallsBackThenGoesStraightToTcp(client, tcp.url("/small"));
    }
  }

  @Test
  void fallsBackAtOnceWhenQuicFailsAndMarksItBroken() {
    TestPki pki = TestPki.shared();
    // The QUIC endpoint presents a certificate nobody trusts: the handshake fails fast.
    try (Http3TestServer h3 = Http3TestServer.start(pki.selfSigned().cert(), pki.selfSigned().key(), 100);
        Client client = client(Duration.ofSeconds(5))) {
      client.get(tcp.url("/alt-svc/" + h3.port()));
      for (int i = 0; i < 3; i++) {
        Response r = client.get(tcp.url("/small"));
        assertEquals(Version.HTTP_2, r.version());
        assertArrayEquals(Payloads.SMALL, r.bytes());
      }
      assertEquals(1, h3.connections(), "tried once, then marked broken");
      // A new advertisement does not override the broken mark.
      client.get(tcp.url("/alt-svc/" + h3.port()));
      assertEquals(Version.HTTP_2, client.get(tcp.url("/small")).version());
      assertEquals(1, h3.connections());
    }
  }

  @Test
  void prefersHttp3ForConcurrentRequestsOnceUp() throws Exception {
    try (Http3TestServer h3 = Http3Fixture.server(100); Client client = client(Duration.ofSeconds(5))) {
      client.get(tcp.url("/alt-svc/" + h3.port()));
      var futures = new java.util.ArrayList<java.util.concurrent.CompletableFuture<Response>>();
      for (int i = 0; i < 50; i++) {
        futures.add(client.async().get(tcp.url("/small")));
      }
      for (var f : futures) {
        Response r = f.join();
        assertArrayEquals(Payloads.SMALL, r.bytes());
        assertEquals(Version.HTTP_3, r.version());
      }
      assertEquals(1, h3.connections());
    }
  }
}
