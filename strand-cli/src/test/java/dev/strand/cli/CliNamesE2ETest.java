package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServer;
import java.net.ServerSocket;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** curl's name and address options: --resolve, --connect-to, -4/-6, --interface and --doh-url (against Unbound). */
class CliNamesE2ETest {
  private static String env(String name) {
    String v = System.getenv(name);
    if (v == null || v.isBlank()) {
      if ("true".equals(System.getenv("CI"))) {
        throw new AssertionError(name + " is not set on CI: run the tests through bin/test");
      }
      Assumptions.abort(name + " is not set (bin/test starts the peer)");
    }
    return v;
  }

  @Test
  void resolveGivesANameItsAddressesAndTriesEach() {
    try (TestServer server = TestServer.start()) {
      int port = server.port();
      Cli.Result r = Cli.run("--resolve", "api.test:" + port + ":127.0.0.2,127.0.0.1", "http://api.test:" + port + "/small");
      assertEquals(0, r.exit(), r::toString);
      assertArrayEquals(Payloads.SMALL, r.stdoutBytes());
    }
  }

  @Test
  void everyAddressRefusedIsExit7NamingEach() throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    Cli.Result r = Cli.run("--resolve", "api.test:" + closed + ":127.0.0.2,[::1]", "http://api.test:" + closed + "/");
    assertEquals(7, r.exit(), r::toString);
    // In the order given: the first address's family leads.
    assertTrue(r.stderr().contains("every address failed: 127.0.0.2:" + closed + " (connection refused); [::1]:"
        + closed + " (connection refused)"), r::toString);
  }

  @Test
  void connectToKeepsTheUrlsHost() {
    try (TestServer server = TestServer.start()) {
      Cli.Result r = Cli.run("--connect-to", "example.test:80:127.0.0.1:" + server.port(), "http://example.test/headers");
      assertEquals(0, r.exit(), r::toString);
      assertTrue(r.stdout().toLowerCase(java.util.Locale.ROOT).contains("example.test"), r::toString);
    }
  }

  @Test
  void ipv6OnlyRefusesAnIpv4OnlyName() {
    Cli.Result r = Cli.run("-6", "--resolve", "v4.test:80:127.0.0.1", "http://v4.test/");
    assertEquals(6, r.exit(), r::toString);
    assertTrue(r.stderr().contains("cannot resolve host v4.test: v4.test has no IPv6 address"), r::toString);
  }

  @Test
  void interfaceBindsTheLocalAddress() {
    try (TestServer server = TestServer.start()) {
      Cli.Result ok = Cli.run("--interface", "lo", server.url("/small"));
      assertEquals(0, ok.exit(), ok::toString);
      Cli.Result wrongFamily = Cli.run("--interface", "127.0.0.1", "http://[::1]:" + server.port() + "/small");
      assertEquals(7, wrongFamily.exit(), wrongFamily::toString);
      Cli.Result bad = Cli.run("--interface", "no-such-nic0", server.url("/small"));
      assertEquals(2, bad.exit(), bad::toString);
      assertTrue(bad.stderr().contains("--interface no-such-nic0"), bad::toString);
    }
  }

  @Test
  void dohUrlResolvesThroughUnbound() {
    String doh = env("STRAND_UNBOUND_DOH_URL");
    String ca = env("STRAND_TLS_CA");
    try (TestServer server = TestServer.start()) {
      Cli.Result r = Cli.run("--cacert", ca, "--doh-url", doh, "http://v4.strand.test:" + server.port() + "/small");
      assertEquals(0, r.exit(), r::toString);
      assertArrayEquals(Payloads.SMALL, r.stdoutBytes());
      Cli.Result unknown = Cli.run("--cacert", ca, "--doh-url", doh, "http://nosuch.strand.test/");
      assertEquals(6, unknown.exit(), unknown::toString);
      assertTrue(unknown.stderr().contains("no address (DNS over HTTPS"), unknown::toString);
    }
  }
}
