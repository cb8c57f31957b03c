package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.TestServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** -v never shows credentials unless --no-redact: a pasted log leaks nothing. */
class CliRedactionE2ETest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  private static final String BASIC = "Basic YWxpY2U6czNjcmV0"; // alice:s3cret

  @Test
  void verboseRedactsCredentialsAndUserInfo() {
    Cli.Result r = Cli.run("-v", "-u", "alice:s3cret", "-H", "Cookie: sid=c00kie", server.url("/cookies/set?flavour=oat"));
    assertEquals(0, r.exit(), r::toString);
    assertTrue(r.stderr().contains("> Authorization: <redacted>"), r::toString);
    assertTrue(r.stderr().contains("> Cookie: <redacted>"), r::toString);
    assertTrue(r.stderr().toLowerCase(java.util.Locale.ROOT).contains("< set-cookie: <redacted>"), r::toString);
    assertFalse(r.stderr().contains(BASIC) || r.stderr().contains("c00kie"), r::toString);
  }

  @Test
  void noRedactShowsThem() {
    Cli.Result r = Cli.run("-v", "--no-redact", "-u", "alice:s3cret", server.url("/small"));
    assertEquals(0, r.exit(), r::toString);
    assertTrue(r.stderr().contains("> Authorization: " + BASIC), r::toString);
  }
}
