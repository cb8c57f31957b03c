package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.Http3TestServer;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServer;
import dev.strand.testkit.tls.TestPki;
import java.net.DatagramSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code --http3-only} and {@code --http3} against the testkit's HTTP/3 and HTTPS servers. */
class CliHttp3E2ETest {
  static TestPki pki;
  static Http3TestServer h3;
  static TestServer tcp;

  @BeforeAll
  static void start() throws Exception {
    pki = TestPki.generate(Files.createTempDirectory("strand-cli-pki"));
    h3 = Http3TestServer.start(pki.server().cert(), pki.server().key(), 100);
    tcp = TestServer.builder().tls(pki.server().cert(), pki.server().key()).http2(true).build();
  }

  @AfterAll
  static void stop() {
    h3.close();
    tcp.close();
  }

  private static String ca() {
    return pki.ca().cert().toString();
  }

  @Test
  void http3OnlySpeaksHttp3() {
    Cli.Result r = Cli.run("--http3-only", "--cacert", ca(), "-i", h3.url("/small"));
    assertEquals(0, r.exit(), r::toString);
    assertTrue(r.stdout().startsWith("HTTP/3 200"), r::toString);
    assertTrue(r.stdout().endsWith(new String(Payloads.SMALL, StandardCharsets.UTF_8)), r::toString);
    assertEquals("", r.stderr(), r::toString);
  }

  @Test
  void http3OnlyWithNothingOnUdpTimesOutAs28() throws Exception {
    int closed;
    try (DatagramSocket s = new DatagramSocket(0)) {
      closed = s.getLocalPort();
    }
    Cli.Result r = Cli.run("--http3-only", "--cacert", ca(), "--connect-timeout", "0.5",
        "https://127.0.0.1:" + closed + "/small");
    assertEquals(28, r.exit(), r::toString);
    assertTrue(r.stderr().contains("connect timed out after 0.5 s"), r::toString);
  }

  @Test
  void http3TriesQuicFirst() {
    try (TestServer twin = TestServer.builder().tls(pki.server().cert(), pki.server().key()).http2(true)
        .port(h3.port()).build()) {
      Cli.Result r = Cli.run("--http3", "--cacert", ca(), "-i", twin.url("/small"));
      assertEquals(0, r.exit(), r::toString);
      assertTrue(r.stdout().startsWith("HTTP/3 200"), "QUIC on the URL's own port, as curl --http3: " + r);
    }
  }

  @Test
  void http3FallsBackToTcpWhenNothingAnswersOnUdp() {
    Cli.Result r = Cli.run("--http3", "--cacert", ca(), "-i", tcp.url("/small"));
    assertEquals(0, r.exit(), r::toString);
    assertTrue(r.stdout().startsWith("HTTP/2 200"), r::toString);
    assertTrue(r.stdout().endsWith(new String(Payloads.SMALL, StandardCharsets.UTF_8)), r::toString);
  }
}
