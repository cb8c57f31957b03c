package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServerExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** What the request carries: method, headers, params, bodies, credentials, compression. */
class CliRequestE2ETest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();
  @TempDir Path dir;

  @Test
  void methodHeadersAndParams() {
    Echo e = echo("-X", "QUERY", "-H", "X-One: 1", "-H", "X-Two: two words", "--url-query", "q=a b", "--url-query", "n=1",
        server.url("/echo"));
    assertEquals("QUERY", e.method());
    assertEquals("1", e.header("X-One"));
    assertEquals("two words", e.header("X-Two"));
    assertEquals("q=a+b&n=1", e.query()); // curl's form encoding
    assertTrue(e.header("User-Agent").startsWith("strand/"), e.json().toString());
  }

  @Test
  void emptyHeaderValueRemovesTheHeader() {
    assertNull(echo("-H", "User-Agent:", server.url("/echo")).header("User-Agent"));
    assertEquals("custom/1", echo("-H", "User-Agent: custom/1", server.url("/echo")).header("User-Agent"));
  }

  @Test
  void dataIsAPostFormFromTextFilesAndStdin() throws Exception {
    Echo e = echo("-d", "a=1", "-d", "b=2", server.url("/echo"));
    assertEquals("POST", e.method());
    assertEquals("a=1&b=2", e.body());
    assertEquals("application/x-www-form-urlencoded", e.header("Content-Type"));

    Path f = Files.writeString(dir.resolve("body.txt"), "from a file");
    assertEquals("from a file", echo("-X", "PUT", "-d", "@" + f, server.url("/echo")).body());

    Cli.Result r = Cli.run(Map.of(), "from stdin".getBytes(StandardCharsets.UTF_8), "-d", "@-", server.url("/echo"));
    assertEquals(0, r.exit(), r::toString);
    assertEquals("from stdin", Echo.parse(r.stdout()).body());
  }

  @Test
  void jsonSetsContentTypeAndAccept() {
    Echo e = echo("--json", "{\"q\": \"strand\"}", server.url("/echo"));
    assertEquals("POST", e.method());
    assertEquals("{\"q\": \"strand\"}", e.body());
    assertEquals("application/json", e.header("Content-Type"));
    assertEquals("application/json", e.header("Accept"));
  }

  @Test
  void formSendsMultipartWithStreamedFiles() throws Exception {
    Path f = Files.writeString(dir.resolve("notes.txt"), "file content\n");
    Echo e = echo("-F", "title=holiday", "-F", "doc=@" + f + ";type=text/plain", server.url("/echo"));
    String type = e.header("Content-Type");
    assertTrue(type.startsWith("multipart/form-data; boundary="), type);
    String boundary = type.substring(type.indexOf('=') + 1);
    String expected = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nholiday\r\n"
        + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"notes.txt\"\r\n"
        + "Content-Type: text/plain\r\n\r\nfile content\n\r\n--" + boundary + "--\r\n";
    assertEquals(expected, e.body());
    assertEquals(String.valueOf(expected.length()), e.header("Content-Length"), "multipart length is known up front");
  }

  @Test
  void basicAndBearerCredentials() {
    Cli.Result ok = Cli.run("-u", "alice:s3cret", server.url("/basic-auth/alice/s3cret"));
    assertEquals(0, ok.exit(), ok::toString);
    Cli.Result wrong = Cli.run("-f", "-u", "alice:nope", server.url("/basic-auth/alice/s3cret"));
    assertEquals(22, wrong.exit(), wrong::toString);
    Cli.Result bearer = Cli.run("--bearer", "tok123", server.url("/bearer"));
    assertEquals(0, bearer.exit(), bearer::toString);
    assertTrue(bearer.stdout().contains("tok123"), bearer::toString);
  }

  @Test
  void compressionIsOnByDefaultAndCanBeTurnedOff() {
    Cli.Result on = Cli.run(server.url("/gzip"));
    assertEquals(0, on.exit(), on::toString);
    assertEquals(new String(Payloads.GZIP_JSON, StandardCharsets.UTF_8), on.stdout());
    String asked = Echo.parse(Cli.run("--compressed", server.url("/echo")).stdout()).header("Accept-Encoding");
    assertTrue(asked != null && asked.contains("gzip"), asked);
    Cli.Result off = Cli.run("--no-compressed", "-H", "Accept-Encoding: identity", server.url("/echo"));
    assertEquals("identity", Echo.parse(off.stdout()).header("Accept-Encoding"));
    Cli.Result noHeader = Cli.run("--no-compressed", server.url("/echo"));
    assertNull(Echo.parse(noHeader.stdout()).header("Accept-Encoding"), noHeader::toString);
  }

  @Test
  void http11IsAccepted() {
    Cli.Result r = Cli.run("--http1.1", server.url("/small"));
    assertEquals(0, r.exit(), r::toString);
  }

  private static Echo echo(String... args) {
    Cli.Result r = Cli.run(args);
    assertEquals(0, r.exit(), r::toString);
    assertEquals("", r.stderr());
    return Echo.parse(r.stdout());
  }
}
