package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Version, help, a plain GET, and the separation of stdout (body) from stderr (diagnostics). */
class CliBasicsE2ETest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @Test
  void versionAndHelp() {
    Cli.Result v = Cli.run("--version");
    assertEquals(0, v.exit(), v::toString);
    assertTrue(v.stdout().startsWith("strand 0.1.0"), v::toString);
    assertEquals("", v.stderr());

    Cli.Result h = Cli.run("--help");
    assertEquals(0, h.exit(), h::toString);
    for (String section : new String[] {"Usage: strand", "Request:", "Output:", "Connection:", "Exit codes", "Examples:"}) {
      assertTrue(h.stdout().contains(section), section);
    }
  }

  @Test
  void getWritesTheBodyExactlyToStdoutAndNothingToStderr() {
    Cli.Result r = Cli.run(server.url("/small"));
    assertEquals(0, r.exit(), r::toString);
    assertArrayEquals(Payloads.SMALL, r.stdoutBytes(), "piped JSON is passed through byte for byte");
    assertEquals("", r.stderr());
  }

  @Test
  void urlWithoutSchemeGetsHttp() {
    Cli.Result r = Cli.run(server.url("/small").replace("http://", ""));
    assertEquals(0, r.exit(), r::toString);
    assertArrayEquals(Payloads.SMALL, r.stdoutBytes());
  }

  @Test
  void failuresPrintOneLineOnStderrAndNothingOnStdout() {
    Cli.Result r = Cli.run("--timeout", "1", server.url("/never"));
    assertEquals(28, r.exit(), r::toString);
    assertEquals("", r.stdout());
    assertEquals("strand: read timed out after 1.0 s (GET " + server.url("/never") + ")\n", r.stderr());
  }

  @Test
  void usageErrorsAreExit2WithAHint() {
    Cli.Result r = Cli.run("--no-such-flag", server.url("/small"));
    assertEquals(2, r.exit(), r::toString);
    assertEquals("strand: unknown option --no-such-flag (see strand --help)\n", r.stderr());
    assertEquals("", r.stdout());
    assertEquals(2, Cli.run().exit(), "no URL");
  }

  @Test
  void launcherWorksFromAnyDirectory(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(Cli.LAUNCHER.toString(), "--version").directory(dir.toFile());
    pb.environment().put("STRAND_NO_BUILD", "1");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes());
    assertEquals(0, p.waitFor());
    assertTrue(out.startsWith("strand "), out);
    assertTrue(Files.list(dir).findAny().isEmpty(), "leaves nothing in the working directory");
  }
}
