package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServer;
import dev.strand.testkit.TestServerExtension;
import dev.strand.testkit.tls.TestPki;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code -U}, {@code --proxy-digest}, {@code --proxy-negotiate}, {@code --proxy-cacert} and
 * {@code --proxy-insecure} against the squid proxies and the KDC that bin/test starts.
 */
class CliEnterpriseProxyE2ETest {
  @RegisterExtension
  static final TestServerExtension https = TestServerExtension.of(() -> TestServer.builder()
      .tls(TestPki.shared().server().cert(), TestPki.shared().server().key()).build());

  private static String env(String name) {
    String v = System.getenv(name);
    if (v == null && System.getenv("CI") != null) {
      fail(name + " is not set on CI: run the tests through bin/test, which starts the proxies");
    }
    assumeTrue(v != null, "no " + name + " (bin/test starts it)");
    return v;
  }

  private static String small() {
    return new String(Payloads.SMALL, StandardCharsets.UTF_8);
  }

  private static String serverCa() {
    return TestPki.shared().ca().cert().toString();
  }

  @Test
  void digestToSquidOverTcpAndTls() {
    String squid = env("STRAND_SQUID_DIGEST_URL");
    Cli.Result r = Cli.run("-x", squid, "-U", "user:pass word", "--proxy-digest", "--cacert", serverCa(), https.url("/small"));
    assertEquals(0, r.exit(), r::toString);
    assertEquals(small(), r.stdout());
    Cli.Result tls = Cli.run("-x", env("STRAND_SQUID_HTTPS_URL"), "--proxy-cacert", env("STRAND_TLS_CA"), "-U",
        "user:pass word", "--proxy-digest", "--cacert", serverCa(), https.url("/small"));
    assertEquals(0, tls.exit(), tls::toString);
    assertEquals(small(), tls.stdout());
    Cli.Result insecure = Cli.run("-x", env("STRAND_SQUID_HTTPS_URL"), "--proxy-insecure", "-U", "user:pass word",
        "--proxy-digest", "--cacert", serverCa(), https.url("/small"));
    assertEquals(0, insecure.exit(), insecure::toString);
    Cli.Result wrong = Cli.run("-x", squid, "-U", "user:nope", "--proxy-digest", "--cacert", serverCa(), https.url("/small"));
    assertEquals(56, wrong.exit(), wrong::toString);
    assertTrue(wrong.stderr().contains("407 Proxy Authentication Required"), wrong::toString);
    Cli.Result untrusted = Cli.run("-x", env("STRAND_SQUID_HTTPS_URL"), "-U", "user:pass word", "--proxy-digest",
        "--cacert", serverCa(), https.url("/small"));
    assertEquals(60, untrusted.exit(), untrusted::toString);
  }

  @Test
  void negotiateToSquidWithTheTicketKinitLeft() throws Exception {
    String squid = env("STRAND_SQUID_NEGOTIATE_URL");
    String conf = env("STRAND_KRB5_CONF");
    Path cache = Files.createTempFile("strand-krb5cc", "");
    try {
      Map<String, String> krb = Map.of("KRB5_CONFIG", conf, "KRB5CCNAME", "FILE:" + cache);
      kinit(krb, env("STRAND_KRB5_PRINCIPAL"), env("STRAND_KRB5_PASSWORD"));
      Cli.Result r = Cli.run(krb, null, "-x", squid, "--proxy-negotiate", "--cacert", serverCa(), https.url("/small"));
      assertEquals(0, r.exit(), r::toString);
      assertEquals(small(), r.stdout());
    } finally {
      Files.deleteIfExists(cache);
    }
  }

  private static void kinit(Map<String, String> env, String principal, String password)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder("kinit", principal).redirectErrorStream(true);
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().write((password + "\n").getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(30, TimeUnit.SECONDS), "kinit did not finish");
    assertEquals(0, p.exitValue(), "kinit: " + out);
  }
}
