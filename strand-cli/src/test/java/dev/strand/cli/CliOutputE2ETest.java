package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServerExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** -i, -I, -v, -o, -s and -L: what goes to stdout, stderr and files. */
class CliOutputE2ETest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();
  @TempDir Path dir;

  @Test
  void includePutsStatusAndHeadersBeforeTheBody() {
    Cli.Result r = Cli.run("-i", server.url("/small"));
    assertEquals(0, r.exit(), r::toString);
    String out = new String(r.stdoutBytes(), StandardCharsets.ISO_8859_1);
    assertTrue(out.startsWith("HTTP/1.1 200 OK\r\n"), out);
    int end = out.indexOf("\r\n\r\n");
    assertTrue(out.substring(0, end).toLowerCase().contains("\r\ncontent-type: application/json"), out);
    assertEquals(new String(Payloads.SMALL, StandardCharsets.ISO_8859_1), out.substring(end + 4));
    assertEquals("", r.stderr());
  }

  @Test
  void headSendsHeadAndPrintsOnlyTheHead() {
    Cli.Result r = Cli.run("-I", server.url("/small"));
    assertEquals(0, r.exit(), r::toString);
    assertTrue(r.stdout().startsWith("HTTP/1.1 200 OK\r\n"), r::toString);
    assertTrue(r.stdout().endsWith("\r\n\r\n"), "no body after the head: " + r);
  }

  @Test
  void verboseWritesRequestAndResponseHeadersToStderrOnly() {
    Cli.Result r = Cli.run("-v", "-H", "X-Trace: abc", server.url("/small"));
    assertEquals(0, r.exit(), r::toString);
    assertArrayEquals(Payloads.SMALL, r.stdoutBytes(), "stdout holds the body alone");
    String err = r.stderr();
    assertTrue(err.contains("> GET /small HTTP/1.1\n"), err);
    assertTrue(err.contains("> X-Trace: abc\n"), err);
    assertTrue(err.contains("> Host: 127.0.0.1:" + server.port() + "\n"), err);
    assertTrue(err.contains("< HTTP/1.1 200 OK\n"), err);
    assertTrue(err.contains("in cleartext (no TLS)"), err);
  }

  @Test
  void outputWritesTheBodyToAFileAndNothingToStdout() throws Exception {
    Path file = dir.resolve("big.bin");
    Cli.Result r = Cli.run("-o", file.toString(), server.url("/big"));
    assertEquals(0, r.exit(), r::toString);
    assertEquals("", r.stdout());
    assertEquals("", r.stderr(), "no progress bar when stderr is not a terminal");
    assertArrayEquals(Payloads.BIG, Files.readAllBytes(file));
  }

  @Test
  void outputToAnImpossiblePathIsExit23() {
    Cli.Result r = Cli.run("-o", dir.resolve("no/such/dir/x").toString(), server.url("/small"));
    assertEquals(23, r.exit(), r::toString);
    assertTrue(r.stderr().startsWith("strand: cannot write "), r::toString);
  }

  @Test
  void redirectsAreNotFollowedUnlessAskedAndThenEveryHopIsIncluded() {
    Cli.Result notFollowed = Cli.run("-i", server.url("/redirect/2"));
    assertEquals(0, notFollowed.exit(), notFollowed::toString);
    assertTrue(notFollowed.stdout().startsWith("HTTP/1.1 302"), notFollowed::toString);

    Cli.Result followed = Cli.run("-i", "-L", server.url("/redirect/2"));
    assertEquals(0, followed.exit(), followed::toString);
    String out = followed.stdout();
    assertEquals(2, out.split("HTTP/1.1 302", -1).length - 1, out);
    assertTrue(out.contains("HTTP/1.1 200 OK"), out);
    assertTrue(out.contains("\"path\""), "the final body is the /echo answer: " + out);
  }

  @Test
  void silentHidesFailuresAndShowErrorShowsThem() {
    Cli.Result silent = Cli.run("-s", "--timeout", "0.5", server.url("/never"));
    assertEquals(28, silent.exit(), silent::toString);
    assertEquals("", silent.stderr(), "curl's -s: the exit code alone says it");
    Cli.Result r = Cli.run("-sS", "--timeout", "0.5", server.url("/never"));
    assertEquals(28, r.exit(), r::toString);
    assertTrue(r.stderr().startsWith("strand: read timed out after 0.5 s"), r::toString);
    assertFalse(r.stderr().contains("\tat "), "no stack trace without -v");
  }
}
