package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.Payloads;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** --unix-socket as curl has it, against nginx listening on a socket (bin/test starts it). */
class CliUnixSocketE2ETest {
  private static String socket() {
    String s = System.getenv("STRAND_NGINX_SOCKET");
    if (s == null || s.isBlank()) {
      if ("true".equals(System.getenv("CI"))) {
        throw new AssertionError("STRAND_NGINX_SOCKET is not set on CI: run the tests through bin/test");
      }
      Assumptions.abort("STRAND_NGINX_SOCKET is not set (bin/test starts nginx on a socket)");
    }
    return s;
  }

  @Test
  void aGetOverTheSocket() {
    Cli.Result r = Cli.run("--unix-socket", socket(), "http://localhost/small.json");
    assertEquals(0, r.exit(), r::toString);
    assertArrayEquals(Payloads.SMALL, r.stdoutBytes());
  }

  @Test
  void aMissingSocketIsExit7NamingIt() {
    Cli.Result r = Cli.run("--unix-socket", "/nonexistent/strand.sock", "http://localhost/");
    assertEquals(7, r.exit(), r::toString);
    assertTrue(r.stderr().contains("unix socket /nonexistent/strand.sock"), r::toString);
  }
}
