package dev.strand.http3;

import dev.strand.Client;
import dev.strand.Timeout;
import dev.strand.Tls;
import dev.strand.Version;
import dev.strand.testkit.Http3TestServer;
import dev.strand.testkit.tls.TestPki;
import java.time.Duration;

/** The testkit's HTTP/3 server with the shared test PKI, and clients that trust it. */
final class Http3Fixture {
  private Http3Fixture() {}

  static Http3TestServer server(int maxStreams) {
    TestPki pki = TestPki.shared();
    return Http3TestServer.start(pki.server().cert(), pki.server().key(), maxStreams);
  }

  static Tls trustingTestCa() {
    return Tls.builder().trustPem(TestPki.shared().ca().cert()).build();
  }

  static Client client(Version version) {
    return client(version, Timeout.of(Duration.ofSeconds(20)));
  }

  static Client client(Version version, Timeout timeout) {
    return Client.builder().tls(trustingTestCa()).version(version).timeout(timeout).build();
  }
}
