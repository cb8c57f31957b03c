package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestProxy;
import dev.strand.testkit.TestServer;
import dev.strand.testkit.TestServerExtension;
import dev.strand.testkit.tls.TestPki;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code --proxy}, {@code --no-proxy-env} and the proxy variables, through the testkit's proxy and tinyproxy. */
class CliProxyE2ETest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();
  @RegisterExtension
  static final TestServerExtension https = TestServerExtension.of(() -> TestServer.builder()
      .tls(TestPki.shared().server().cert(), TestPki.shared().server().key()).build());
  static TestProxy proxy;

  @BeforeAll
  static void start() {
    proxy = TestProxy.start();
  }

  @AfterAll
  static void stop() {
    proxy.close();
  }

  private static String small() {
    return new String(Payloads.SMALL, StandardCharsets.UTF_8);
  }

  @Test
  void proxyFlagSendsAbsoluteFormWithCredentials() {
    int before = proxy.seen().size();
    String proxyUrl = proxy.url().replace("http://", "http://alice:s3cret@");
    Cli.Result r = Cli.run("-v", "--proxy", proxyUrl, server.url("/small"));
    assertEquals(0, r.exit(), r::toString);
    TestProxy.Seen seen = proxy.seen().get(before);
    assertEquals("GET " + server.url("/small") + " HTTP/1.1", seen.requestLine());
    assertEquals("Basic YWxpY2U6czNjcmV0", seen.proxyAuthorization());
    assertTrue(r.stderr().contains(", through proxy " + proxy.url()), r::toString);
    assertTrue(!r.stderr().contains("s3cret"), "-v never shows the proxy's password");
  }

  @Test
  void proxytunnelSendsHttpThroughConnectToo() {
    int before = proxy.seen().size();
    Cli.Result r = Cli.run("-p", "--proxy", proxy.url(), server.url("/small"));
    assertEquals(0, r.exit(), r::toString);
    assertEquals(small(), r.stdout());
    assertEquals("CONNECT 127.0.0.1:" + server.port() + " HTTP/1.1", proxy.seen().get(before).requestLine(),
        "the proxy saw a tunnel asked for, not the request");
  }

  @Test
  void httpsGoesThroughATunnelAndTheServerIsStillVerified() {
    int connects = proxy.connects();
    Cli.Result r = Cli.run("--proxy", proxy.url(), "--cacert", TestPki.shared().ca().cert().toString(), https.url("/small"));
    assertEquals(0, r.exit(), r::toString);
    assertEquals(small(), r.stdout());
    assertEquals(connects + 1, proxy.connects());

    Cli.Result untrusted = Cli.run("--proxy", proxy.url(), https.url("/small"));
    assertEquals(60, untrusted.exit(), untrusted::toString);
  }

  @Test
  void environmentIsReadUnlessNoProxyEnvOrNoProxyListsTheHost() {
    int before = proxy.seen().size();
    Cli.Result viaEnv = Cli.run(Map.of("http_proxy", proxy.url()), null, server.url("/small"));
    assertEquals(0, viaEnv.exit(), viaEnv::toString);
    assertEquals(before + 1, proxy.seen().size(), "http_proxy was used");

    Cli.Result ignored = Cli.run(Map.of("http_proxy", proxy.url()), null, "--no-proxy-env", server.url("/small"));
    assertEquals(0, ignored.exit(), ignored::toString);
    Cli.Result bypassed = Cli.run(Map.of("http_proxy", proxy.url(), "NO_PROXY", "127.0.0.1"), null, server.url("/small"));
    assertEquals(0, bypassed.exit(), bypassed::toString);
    assertEquals(before + 1, proxy.seen().size(), "neither run went through the proxy");
  }

  @Test
  void noproxyListsHostsThatGoDirectForTheFlagAndTheEnvironment() {
    int before = proxy.seen().size();
    Cli.Result direct = Cli.run("--proxy", proxy.url(), "--noproxy", "127.0.0.1", server.url("/small"));
    assertEquals(0, direct.exit(), direct::toString);
    Cli.Result envDirect = Cli.run(Map.of("http_proxy", proxy.url(), "NO_PROXY", "example.test"), null,
        "--noproxy", "127.0.0.1", server.url("/small"));
    assertEquals(0, envDirect.exit(), envDirect::toString);
    assertEquals(before, proxy.seen().size(), "--noproxy sent both direct");
    Cli.Result other = Cli.run("--proxy", proxy.url(), "--noproxy", "example.test", server.url("/small"));
    assertEquals(0, other.exit(), other::toString);
    assertEquals(before + 1, proxy.seen().size(), "a host not in the list goes through the proxy");
  }

  @Test
  void proxyUserIsSentAsBasicToTheProxyOnly() {
    int before = proxy.seen().size();
    Cli.Result r = Cli.run("-U", "bob:pw", "--proxy", proxy.url(), server.url("/headers"));
    assertEquals(0, r.exit(), r::toString);
    assertEquals("Basic Ym9iOnB3", proxy.seen().get(before).proxyAuthorization());
  }

  @Test
  void refusedTunnelUnreachableProxyAndBadProxyUrlFailWithOneLine() {
    try (TestProxy refusing = TestProxy.builder().connectStatus(407).build()) {
      Cli.Result r = Cli.run("--proxy", refusing.url(), https.url("/small"));
      assertEquals(56, r.exit(), r::toString);
      assertTrue(r.stderr().startsWith("strand: proxy 127.0.0.1:" + refusing.port() + " refused the tunnel to 127.0.0.1:"
          + https.port() + ": 407 Proxy Authentication Required"), r::toString);
    }
    Cli.Result unreachable = Cli.run("--proxy", "http://127.0.0.1:1", server.url("/small"));
    assertEquals(7, unreachable.exit(), unreachable::toString);
    assertTrue(unreachable.stderr().startsWith("strand: cannot connect to proxy 127.0.0.1:1: "), unreachable::toString);

    Cli.Result bad = Cli.run("--proxy", "ftp://127.0.0.1:3128", server.url("/small"));
    assertEquals(2, bad.exit(), bad::toString);
    assertTrue(bad.stderr().startsWith("strand: --proxy: "), bad::toString);
    Cli.Result badEnv = Cli.run(Map.of("https_proxy", "ftp://x"), null, https.url("/small"));
    assertEquals(2, badEnv.exit(), badEnv::toString);
    assertTrue(badEnv.stderr().contains("https_proxy"), badEnv::toString);
  }

  @Test
  void throughTinyproxy() {
    String tinyproxy = System.getenv("STRAND_TINYPROXY_URL");
    if (tinyproxy == null && System.getenv("CI") != null) {
      fail("STRAND_TINYPROXY_URL is not set on CI: run the tests through bin/test, which starts tinyproxy");
    }
    assumeTrue(tinyproxy != null, "no tinyproxy (bin/test starts one)");
    Cli.Result r = Cli.run("--proxy", tinyproxy, server.url("/headers"));
    assertEquals(0, r.exit(), r::toString);
    assertTrue(r.stdout().toLowerCase().contains("tinyproxy"), "the Via header of tinyproxy reached the server: " + r);
    Cli.Result tunnel = Cli.run("--proxy", tinyproxy, "--cacert", TestPki.shared().ca().cert().toString(), https.url("/small"));
    assertEquals(0, tunnel.exit(), tunnel::toString);
    assertEquals(small(), tunnel.stdout());
  }
}
