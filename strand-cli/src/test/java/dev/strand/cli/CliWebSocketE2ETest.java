package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.TestProxy;
import dev.strand.testkit.TestServer;
import dev.strand.testkit.TestServerExtension;
import dev.strand.testkit.tls.TestPki;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code --ws} through the real launcher against the testkit's WebSocket endpoints. */
class CliWebSocketE2ETest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();
  @RegisterExtension
  static final TestServerExtension tls = TestServerExtension.of(() -> TestServer.builder()
      .tls(TestPki.shared().server().cert(), TestPki.shared().server().key()).build());

  private static String ws(TestServerExtension s, String path) {
    return s.url(path).replaceFirst("^http", "ws");
  }

  @Test
  void stdinLinesGoOutAndMessagesComeBackAsLines() {
    Cli.Result r = Cli.run(Map.of(), "hello\nsnow ☃\n".getBytes(StandardCharsets.UTF_8), "-v", "--ws", ws(server, "/ws/echo"));
    assertEquals(0, r.exit(), r::toString);
    assertEquals("hello\nsnow ☃\n", r.stdout());
    assertTrue(r.stderr().contains("< HTTP/1.1 101 Switching Protocols"), r::toString);
    assertTrue(r.stderr().contains("* WebSocket closed: 1000 (strand closed at the end of stdin; the server answered)"),
        r::toString);
  }

  @Test
  void aConversationAnswersEachLineAsItIsSent() {
    try (Cli.Running ws = Cli.start("--ws", ws(server, "/ws/echo"))) {
      ws.writeLine("first");
      assertEquals("first", ws.readLine(60));
      ws.writeLine("second");
      assertEquals("second", ws.readLine(10));
      ws.closeStdin();
      assertEquals(0, ws.waitFor(10), ws::stderr);
    }
  }

  @Test
  void theServersCloseEndsTheRunWithItsCodeInVerboseOutput() {
    try (Cli.Running ws = Cli.start("-v", "--ws", ws(server, "/ws/close?code=4000&reason=bye"))) {
      // stdin stays open: the server's Close alone ends the run.
      assertEquals(0, ws.waitFor(60), ws::stderr);
      assertTrue(ws.stderr().contains("* WebSocket closed: 4000 bye (closed by the server)"), ws::stderr);
    }
  }

  @Test
  void rejectedHandshakeFailsWithOneLine() {
    Cli.Result r = Cli.run(Map.of(), new byte[0], "--ws", ws(server, "/ws/reject"));
    assertEquals(22, r.exit(), r::toString);
    assertEquals("strand: WebSocket handshake failed: HTTP 403 Forbidden (GET " + ws(server, "/ws/reject") + ")\n",
        r.stderr());
    Cli.Result refused = Cli.run(Map.of(), new byte[0], "--ws", "ws://127.0.0.1:1/ws/echo");
    assertEquals(7, refused.exit(), refused::toString);
  }

  @Test
  void wssVerifiesTheServerAndWorksThroughAProxyTunnel() {
    String ca = TestPki.shared().ca().cert().toString();
    Cli.Result r = Cli.run(Map.of(), "over tls\n".getBytes(StandardCharsets.UTF_8), "--ws", "--cacert", ca, ws(tls, "/ws/echo"));
    assertEquals(0, r.exit(), r::toString);
    assertEquals("over tls\n", r.stdout());
    Cli.Result untrusted = Cli.run(Map.of(), new byte[0], "--ws", ws(tls, "/ws/echo"));
    assertEquals(60, untrusted.exit(), untrusted::toString);

    try (TestProxy proxy = TestProxy.start()) {
      Cli.Result proxied = Cli.run(Map.of(), "tunnelled\n".getBytes(StandardCharsets.UTF_8), "--ws", "--proxy", proxy.url(),
          ws(server, "/ws/echo"));
      assertEquals(0, proxied.exit(), proxied::toString);
      assertEquals("tunnelled\n", proxied.stdout());
      assertEquals(1, proxy.connects(), "one CONNECT tunnel carried the socket");
    }
  }
}
