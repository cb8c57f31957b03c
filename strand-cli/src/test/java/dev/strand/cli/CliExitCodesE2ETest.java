package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.TestServerExtension;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** curl's exit codes, each from a real failure, each with one line on stderr and no stack trace. */
class CliExitCodesE2ETest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @Test
  void failIs22OnStatus400AndAboveWithNoBody() {
    Cli.Result r = Cli.run("-f", server.url("/status/404"));
    assertEquals(22, r.exit(), r::toString);
    assertEquals("", r.stdout());
    assertEquals("strand: HTTP 404 Not Found (GET " + server.url("/status/404") + ")\n", r.stderr());
    assertEquals(0, Cli.run(server.url("/status/404")).exit(), "without -f an error status is still a success");
    assertEquals(0, Cli.run("-f", server.url("/status/204")).exit());
  }

  @Test
  void cannotResolveIs6() {
    Cli.Result r = Cli.run("--timeout", "3", "http://no-such-host.invalid/");
    assertEquals(6, r.exit(), r::toString);
    assertOneLine(r, "strand: cannot resolve host no-such-host.invalid");
  }

  @Test
  void cannotConnectIs7() throws IOException {
    Cli.Result r = Cli.run("http://127.0.0.1:" + closedPort() + "/");
    assertEquals(7, r.exit(), r::toString);
    assertOneLine(r, "strand: cannot connect to 127.0.0.1:");
  }

  @Test
  void timeoutIs28() {
    Cli.Result r = Cli.run("--timeout", "0.5", server.url("/never"));
    assertEquals(28, r.exit(), r::toString);
    assertOneLine(r, "strand: read timed out after 0.5 s (GET " + server.url("/never") + ")");
    assertTrue(r.millis() < 15_000, "bounded: " + r.millis() + " ms");
  }

  @Test
  void connectTimeoutIs28WithItsOwnLimit() throws Exception {
    // A listener that never accepts, its backlog filled: Linux then drops further SYNs, so connecting hangs.
    try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      java.util.List<java.net.Socket> fillers = new java.util.ArrayList<>();
      try {
        for (int i = 0; i < 4; i++) {
          java.net.Socket s = new java.net.Socket();
          try {
            s.connect(full.getLocalSocketAddress(), 200);
          } catch (IOException backlogFull) {
            // expected once the queue is full
          }
          fillers.add(s);
        }
        String url = "http://127.0.0.1:" + full.getLocalPort() + "/";
        Cli.Result r = Cli.run("--connect-timeout", "0.5", "--timeout", "30", url);
        assertEquals(28, r.exit(), r::toString);
        assertOneLine(r, "strand: connect timed out after 0.5 s (GET " + url + ")");
      } finally {
        for (java.net.Socket s : fillers) {
          s.close();
        }
      }
    }
  }

  @Test
  void tooManyRedirectsIs47() {
    Cli.Result r = Cli.run("-L", "--max-redirs", "2", server.url("/redirect/5"));
    assertEquals(47, r.exit(), r::toString);
    assertOneLine(r, "strand: ");
  }

  @Test
  void emptyReplyIs52() {
    Cli.Result r = Cli.run(server.url("/fault/close"));
    assertEquals(52, r.exit(), r::toString);
    assertOneLine(r, "strand: empty reply from server");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/fault/bad-status-line", "/fault/reset-mid-body"})
  void protocolAndReceiveErrorsAre56(String path) {
    Cli.Result r = Cli.run(server.url(path));
    assertEquals(56, r.exit(), r::toString);
    assertOneLine(r, "strand: ");
  }

  @Test
  void badUrlIs3() {
    Cli.Result r = Cli.run("http://bad host/");
    assertEquals(3, r.exit(), r::toString);
    assertOneLine(r, "strand: invalid URL");
  }

  @Test
  void unreadableBodyFileIs26() {
    Cli.Result r = Cli.run("-d", "@/no/such/file", server.url("/echo"));
    assertEquals(26, r.exit(), r::toString);
    assertOneLine(r, "strand: cannot read /no/such/file: no such file");
  }

  @ParameterizedTest
  @ValueSource(strings = {"--ws -d x", "--sse -I", "--sse --ws", "--proxy=ftp://p", "--proxy=gopher://p:70"})
  void streamAndProxyMisuseIsExit2(String flags) {
    List<String> args = new ArrayList<>(List.of(flags.split(" ")));
    args.add(server.url("/small"));
    Cli.Result r = Cli.run(args.toArray(String[]::new));
    assertEquals(2, r.exit(), r::toString);
    assertOneLine(r, "strand: ");
    assertEquals("", r.stdout());
  }

  @Test
  void anHttpsProxyIsAcceptedAndOneThatRefusesIs7() throws IOException {
    Cli.Result r = Cli.run("--proxy=https://127.0.0.1:" + closedPort(), server.url("/small"));
    assertEquals(7, r.exit(), r::toString);
    assertOneLine(r, "strand: cannot connect to proxy 127.0.0.1:");
  }

  @Test
  void verboseAddsTheStackTrace() {
    Cli.Result r = Cli.run("-v", "--timeout", "0.5", server.url("/never"));
    assertEquals(28, r.exit(), r::toString);
    assertTrue(r.stderr().contains("\tat "), r::toString);
    assertTrue(r.stderr().contains("strand: read timed out after 0.5 s"), r::toString);
  }

  private static void assertOneLine(Cli.Result r, String prefix) {
    assertTrue(r.stderr().startsWith(prefix), r::toString);
    assertTrue(r.stderr().endsWith("\n"), r::toString);
    assertEquals(1, r.stderr().lines().count(), () -> "exactly one line: " + r);
    assertFalse(r.stderr().contains("Exception"), () -> "no exception class names: " + r);
  }

  private static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
