package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.testkit.TestServerExtension;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code --sse} through the real launcher against the testkit's event streams. */
class CliEventsE2ETest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  private static String tick(int n, boolean first) {
    return "event: tick\nid: " + n + "\n" + (first ? "retry: 2500\n" : "") + "data: tick " + n + "\ndata: second line\n\n";
  }

  @Test
  void printsEachEventInTheStreamsOwnSyntax() {
    Cli.Result r = Cli.run("--sse", server.url("/sse?count=3"));
    assertEquals(0, r.exit(), r::toString);
    assertEquals(tick(1, true) + tick(2, false) + tick(3, false), r.stdout());
    assertEquals("", r.stderr());
  }

  @Test
  void splitChunksAndUnnamedEventsPrintAsTheStandardParsesThem() {
    Cli.Result r = Cli.run("--sse", server.url("/sse/split"));
    assertEquals(0, r.exit(), r::toString);
    assertEquals("event: message\ndata: first\ndata: second\n\n"
        + "event: café\nid: 7\ndata: 1 ☃ 2\n\n"
        + "event: message\nid: 7\ndata: last\n\n", r.stdout());
  }

  @Test
  void eachEventIsPrintedBeforeTheServerSendsTheNext() {
    String key = UUID.randomUUID().toString();
    try (Cli.Running sse = Cli.start("--sse", server.url("/sse/gated?key=" + key))) {
      List<String> first = List.of(sse.readLine(60), sse.readLine(5), sse.readLine(5), sse.readLine(5),
          sse.readLine(5), sse.readLine(5));
      assertEquals(List.of("event: tick", "id: 1", "retry: 2500", "data: tick 1", "data: second line", ""), first);
      // Only now may the server send event 2: the first was on stdout while the stream was held open.
      try (Client client = Client.create()) {
        assertEquals(200, client.get(server.url("/sse/release?key=" + key)).status());
      }
      assertEquals("event: tick", sse.readLine(5));
      assertEquals("id: 2", sse.readLine(5));
      assertEquals(0, sse.waitFor(10), sse::stderr);
    }
  }

  @Test
  void noReadTimeoutUnlessOneIsGiven() {
    // 5.5 s between events: longer than the default 5 s timeout, which --sse does not apply to reads.
    Cli.Result quiet = Cli.run("--sse", server.url("/sse?count=2&interval=5500"));
    assertEquals(0, quiet.exit(), quiet::toString);
    assertTrue(quiet.stdout().contains("id: 2\n"), quiet::toString);

    Cli.Result limited = Cli.run("--sse", "--timeout", "1", server.url("/sse/gated?key=" + UUID.randomUUID()));
    assertEquals(28, limited.exit(), limited::toString);
    assertTrue(limited.stdout().startsWith("event: tick\nid: 1\n"), "the first event was printed before the timeout");
    assertTrue(limited.stderr().startsWith("strand: read timed out after 1.0 s (GET "), limited::toString);

    Cli.Result total = Cli.run("--sse", "-m", "1", server.url("/sse/gated?key=" + UUID.randomUUID()));
    assertEquals(28, total.exit(), total::toString);
    assertTrue(total.stdout().startsWith("event: tick\nid: 1\n"), total::toString);
    assertTrue(total.stderr().startsWith("strand: the transfer exceeded its -m/--max-time (GET "), total::toString);
  }

  @Test
  void includeAndVerboseShowTheHeadAndTheEnd() {
    Cli.Result r = Cli.run("--sse", "-i", "-v", server.url("/sse?count=1"));
    assertEquals(0, r.exit(), r::toString);
    assertTrue(r.stdout().startsWith("HTTP/1.1 200 OK\r\n"), r::toString);
    assertTrue(r.stdout().endsWith("\r\n\r\n" + tick(1, true)), r::toString);
    assertTrue(r.stderr().contains("> Accept: text/event-stream\n"), r::toString);
    assertTrue(r.stderr().contains("read none"), r::toString);
    assertTrue(r.stderr().contains("* 1 events in "), r::toString);
  }

  @Test
  void errorStatusAndWrongContentTypeFailWithOneLine() {
    Cli.Result missing = Cli.run("--sse", server.url("/status/404"));
    assertEquals(22, missing.exit(), missing::toString);
    assertEquals("", missing.stdout());
    assertEquals("strand: HTTP 404 Not Found (GET " + server.url("/status/404") + ")\n", missing.stderr());

    Cli.Result plain = Cli.run("--sse", server.url("/sse/wrong-type"));
    assertEquals(56, plain.exit(), plain::toString);
    assertEquals(1, plain.stderr().lines().count(), plain::toString);
    assertTrue(plain.stderr().contains("text/event-stream"), plain::toString);
  }

  @Test
  void postBodiesWorkForStreamingApis() {
    Cli.Result r = Cli.run("--sse", "--json", "{\"q\":1}", server.url("/sse?count=1"));
    assertEquals(0, r.exit(), r::toString);
    assertEquals(tick(1, true), r.stdout());
  }
}
