package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A terminal gets indented, coloured JSON and a progress bar; a pipe gets the bytes as sent. */
class CliTerminalE2ETest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();
  @TempDir Path dir;

  @Test
  void jsonIsPrettyAndColouredOnATerminal() {
    Cli.Result r = Cli.runInTerminal(server.url("/small"));
    assertEquals(0, r.exit(), r::toString);
    String out = r.stdout().replace("\r\n", "\n");
    assertTrue(out.startsWith("{\n  " + JsonPrinter.KEY + "\"id\"" + JsonPrinter.RESET + ": "
        + JsonPrinter.NUMBER + "42" + JsonPrinter.RESET + ",\n"), out);
    assertTrue(out.contains(JsonPrinter.STRING + "\"widget\"" + JsonPrinter.RESET), out);
  }

  @Test
  void jsonIsNeverReformattedWhenPiped() {
    Cli.Result r = Cli.run(server.url("/small"));
    assertArrayEquals(Payloads.SMALL, r.stdoutBytes());
    assertFalse(r.stdout().contains("\u001b["), "no escape sequences in a pipe");
  }

  @Test
  void noColorKeepsTheIndentationButDropsColour() {
    Cli.Result r = Cli.runInTerminal("--json", "{}", server.url("/echo"));
    assertTrue(r.stdout().contains("\u001b["), r::toString);
    Cli.Result plain = Cli.runInTerminalWith("NO_COLOR", "1", server.url("/small"));
    assertEquals(0, plain.exit(), plain::toString);
    assertTrue(plain.stdout().startsWith("{\r\n  \"id\": 42,"), plain::toString);
    assertFalse(plain.stdout().contains("\u001b["), plain::toString);
  }

  @Test
  void downloadToAFileShowsAProgressBarOnATerminal() throws Exception {
    Path file = dir.resolve("out.bin");
    int n = 8 << 20;
    Cli.Result r = Cli.runInTerminal("-o", file.toString(), server.url("/bytes/" + n));
    assertEquals(0, r.exit(), r::toString);
    String shown = r.stdout();
    assertTrue(shown.contains("8.0 MiB / 8.0 MiB  100% [########################]"), shown);
    assertTrue(shown.contains("/s"), shown);
    assertEquals(n, Files.size(file));

    Cli.Result silent = Cli.runInTerminal("-s", "-o", file.toString(), server.url("/bytes/" + n));
    assertEquals(0, silent.exit(), silent::toString);
    assertFalse(silent.stdout().contains("MiB"), "-s hides the bar: " + silent);
  }
}
