package dev.strand.http3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.Response;
import dev.strand.Timeout;
import dev.strand.Tls;
import dev.strand.Version;
import dev.strand.VersionPolicy;
import dev.strand.testkit.Http3TestServer;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.tls.TestPki;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

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

  static Client client(VersionPolicy version) {
    return client(version, Timeout.of(Duration.ofSeconds(20)));
  }

  static Client client(VersionPolicy version, Timeout timeout) {
    return Client.builder().tls(trustingTestCa()).version(version).timeout(timeout).build();
  }

  /**
   * With QUIC to {@code url}'s endpoint not answering and a 2 s connect timeout: the first GET goes over
   * TCP (h2) after the 500 ms head start, well within the timeout; once the QUIC attempt has run into its
   * connect timeout the endpoint counts as broken, and the next GET goes straight to TCP.
   */
  static void assertFallsBackThenGoesStraightToTcp(Client client, String url) throws InterruptedException {
    long start = System.nanoTime();
    Response r = client.get(url);
    long ms = millis(start);
    assertEquals(Version.HTTP_2, r.version());
    assertArrayEquals(Payloads.SMALL, r.bytes());
    assertTrue(ms < 1500, "over TCP after the 500 ms head start, well within the 2 s connect timeout: " + ms + " ms");
    Thread.sleep(2200);
    start = System.nanoTime();
    assertEquals(Version.HTTP_2, client.get(url).version());
    ms = millis(start);
    assertTrue(ms < 300, "straight to TCP: " + ms + " ms");
  }

  static long millis(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }
}
