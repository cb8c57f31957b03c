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
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link VersionPolicy#HTTP_3_FIRST} (curl's {@code --http3}): QUIC from the first request, on the origin's
 * own port unless an {@code Alt-Svc} named another; TCP when QUIC is slow or fails, unnoticed, and
 * straight to TCP while the endpoint counts as broken.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http3FirstTest {
  private static Client client(Duration connect) {
    return Http3Fixture.client(VersionPolicy.HTTP_3_FIRST, Timeout.of(Duration.ofSeconds(20)).withConnect(connect));
  }

  /** An HTTPS server (h2 by ALPN) on TCP {@code port}, as a QUIC server there would have its TCP twin. */
  private static TestServer tcpOn(int port) {
    TestPki pki = TestPki.shared();
    return TestServer.builder().tls(pki.server().cert(), pki.server().key()).http2(true).port(port).build();
  }

  @Test
  void speaksHttp3FromTheFirstRequest() {
    try (Http3TestServer h3 = Http3Fixture.server(100); TestServer tcp = tcpOn(h3.port());
        Client client = client(Duration.ofSeconds(5))) {
      Response r = client.get(tcp.url("/small"));
      assertEquals(Version.HTTP_3, r.version(), "QUIC on the origin's own port, with nothing advertised");
      assertArrayEquals(Payloads.SMALL, r.bytes());
      assertEquals(Version.HTTP_3, client.get(tcp.url("/small")).version());
      assertEquals(1, h3.connections());
    }
  }

  @Test
  void fallsBackToTcpWhenNothingAnswersOnUdpThenGoesStraightThere() throws Exception {
    try (TestServer tcp = tcpOn(0); Client client = client(Duration.ofSeconds(2))) {
      Http3Fixture.assertFallsBackThenGoesStraightToTcp(client, tcp.url("/small"));
    }
  }

  @Test
  void fallsBackAtOnceWhenQuicFailsAndDoesNotTryAgain() {
    TestPki pki = TestPki.shared();
    Path untrusted = pki.selfSigned().cert();
    // The QUIC endpoint presents a certificate nobody trusts: its handshake fails fast.
    try (Http3TestServer h3 = Http3TestServer.start(untrusted, pki.selfSigned().key(), 100);
        TestServer tcp = tcpOn(h3.port()); Client client = client(Duration.ofSeconds(5))) {
      for (int i = 0; i < 3; i++) {
        Response r = client.get(tcp.url("/small"));
        assertEquals(Version.HTTP_2, r.version());
        assertArrayEquals(Payloads.SMALL, r.bytes());
      }
      assertEquals(1, h3.connections(), "tried once, then marked broken");
    }
  }

  @Test
  void anAdvertisedAlternativeIsTriedInsteadOfTheOriginsPort() {
    try (Http3TestServer h3 = Http3Fixture.server(100); TestServer tcp = tcpOn(0);
        Client client = client(Duration.ofSeconds(5))) {
      // Nothing on the TCP server's port over UDP: this one falls back, and learns where h3 is.
      Response first = client.get(tcp.url("/alt-svc/" + h3.port()));
      assertEquals(Version.HTTP_2, first.version());
      Response second = client.get(tcp.url("/small"));
      assertEquals(Version.HTTP_3, second.version(), "over QUIC to the advertised port");
      assertArrayEquals(Payloads.SMALL, second.bytes());
      assertEquals(1, h3.connections());
    }
  }
}
