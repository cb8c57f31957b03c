package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Assumptions;

/**
 * {@code --digest}, credentials in the URL, brotli and {@code -b}/{@code -c} against python3-httpbin
 * (bin/test starts it and sets {@code STRAND_HTTPBIN_URL}; without it under bin/test or CI, this fails).
 */
class CliHttpbinE2ETest {
  private static String base;

  @BeforeAll
  static void peer() {
    base = System.getenv("STRAND_HTTPBIN_URL");
    if (base == null || base.isBlank()) {
      if (System.getenv("CI") != null || System.getenv("STRAND_NGINX_URL") != null) {
        fail("STRAND_HTTPBIN_URL is not set: run the tests through bin/test, which starts httpbin");
      }
      Assumptions.abort("no httpbin (bin/test starts one)");
    }
  }

  @Test
  void digestWithUser() {
    Cli.Result ok = Cli.run("--digest", "-u", "user:passwd", base + "/digest-auth/auth/user/passwd/SHA-256");
    assertEquals(0, ok.exit(), ok::toString);
    assertTrue(ok.stdout().contains("\"authenticated\""), ok::toString);
    Cli.Result wrong = Cli.run("-f", "--digest", "-u", "user:nope", base + "/digest-auth/auth/user/passwd/MD5");
    assertEquals(22, wrong.exit(), wrong::toString);
  }

  @Test
  void credentialsInTheUrlAndHiddenInVerboseOutput() {
    Cli.Result r = Cli.run("-v", base.replace("://", "://user:s3cret@") + "/basic-auth/user/s3cret");
    assertEquals(0, r.exit(), r::toString);
    assertFalse(r.stderr().contains("s3cret@"), r::toString);
  }

  @Test
  void brotliIsDecodedByDefault() {
    Cli.Result r = Cli.run(base + "/brotli");
    assertEquals(0, r.exit(), r::toString);
    assertTrue(r.stdout().contains("\"brotli\""), r::toString);
  }

  @Test
  void cookiesRoundTripThroughAFile(@TempDir Path dir) throws IOException {
    Path jar = dir.resolve("cookies.txt");
    Cli.Result set = Cli.run("-c", jar.toString(), base + "/cookies/set?flavour=oat");
    assertEquals(0, set.exit(), set::toString);
    String file = Files.readString(jar);
    assertTrue(file.startsWith("# Netscape HTTP Cookie File") && file.contains("\tflavour\toat"), file);

    Cli.Result sent = Cli.run("-b", jar.toString(), base + "/cookies");
    assertTrue(sent.stdout().contains("oat"), sent::toString);
    Cli.Result literal = Cli.run("-b", "a=1; b=2", base + "/cookies");
    assertTrue(literal.stdout().contains("\"a\"") && literal.stdout().contains("\"b\""), literal::toString);
  }
}
