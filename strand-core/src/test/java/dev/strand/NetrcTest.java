package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.strand.internal.auth.Netrc;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** .netrc: the parser as a table of files and the entries found, then Basic auth against the testkit. */
@ExtendWith(NettyLeakDetectorExtension.class)
class NetrcTest {
  private static TestServer server;

  @BeforeAll
  static void start() {
    server = TestServer.start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  record Case(String name, String file, String host, String login, String password) {}

  static final List<Case> CASES = List.of(
      new Case("one line", "machine a.example login u password p", "a.example", "u", "p"),
      new Case("host case-insensitive", "machine A.Example login u password p", "a.EXAMPLE", "u", "p"),
      new Case("tokens across lines", "machine\na.example\n  login\tu\n\npassword\np\n", "a.example", "u", "p"),
      new Case("first match wins", "machine a login 1 password 1\nmachine a login 2 password 2", "a", "1", "1"),
      new Case("default after machines", "machine a login u password p\ndefault login d password dp", "b", "d", "dp"),
      new Case("machine wins over an earlier default", "default login d password dp\nmachine b login u password p",
          "b", "u", "p"),
      new Case("no match, no default", "machine a login u password p", "b", null, null),
      new Case("quoted value with spaces and escapes", "machine a login \"al ice\" password \"p \\\"q\\\" \\\\ \\t\"",
          "a", "al ice", "p \"q\" \\ \t"),
      new Case("comment lines and trailing comments", "# machine a login x password x\n"
          + "machine a login u # a comment\npassword p", "a", "u", "p"),
      new Case("account ignored", "machine a login u account acct password p", "a", "u", "p"),
      new Case("macdef skipped to the empty line", "macdef init\ncd /\nmachine a login evil password evil\n\n"
          + "machine a login u password p", "a", "u", "p"),
      new Case("login without password", "machine a login u", "a", "u", null),
      new Case("empty file", "", "a", null, null));

  @Test
  void parserTable() {
    for (Case c : CASES) {
      Netrc.Entry e = Netrc.parse(c.file()).find(c.host());
      if (c.login() == null) {
        assertNull(e == null ? null : e.login(), c.name());
      } else {
        assertEquals(c.login(), e.login(), c.name());
        assertEquals(c.password(), e.password(), c.name());
      }
    }
  }

  @Test
  void fileNamedByNetrcVariableElseHomeAndMissingMeansNone(@TempDir Path dir) throws Exception {
    Path named = Files.writeString(dir.resolve("named"), "machine a login n password n");
    Files.writeString(dir.resolve(".netrc"), "machine a login h password h");
    assertEquals("n", Netrc.fromEnvironment(Map.of("NETRC", named.toString()), dir.toString()).find("a").login());
    assertEquals("h", Netrc.fromEnvironment(Map.of(), dir.toString()).find("a").login());
    assertEquals(List.of(), Netrc.fromEnvironment(Map.of(), dir.resolve("nohome").toString()).entries());
    assertThrows(UncheckedIOException.class, () -> Auth.netrc(dir.resolve("missing")));
    assertFalse(Auth.netrc(named).toString().contains("password"));
  }

  @Test
  void basicAuthForTheMatchingHostOnly(@TempDir Path dir) throws Exception {
    Path netrc = Files.writeString(dir.resolve("netrc"), "machine other.example login x password y\n"
        + "machine " + server.host() + "\n  login alice\n  password \"s3 cr3t\"\n");
    try (Client client = Client.builder().auth(Auth.netrc(netrc)).followRedirects(true).build()) {
      Response ok = client.get(server.url("/basic-auth/alice/s3%20cr3t"));
      assertEquals(200, ok.status(), ok.text());
      assertEquals("alice", ok.json(Map.class).get("user"));

      // A redirect to another host (localhost rather than 127.0.0.1) carries no credentials.
      String elsewhere = "http://localhost:" + server.port() + "/headers";
      Response hopped = client.get(server.url("/redirect-to?url=" + URLEncoder.encode(elsewhere, StandardCharsets.UTF_8)));
      assertEquals(200, hopped.status());
      assertEquals("localhost", hopped.request().url().getHost());
      Map<?, ?> headers = (Map<?, ?>) hopped.json(Map.class).get("headers");
      assertNull(headers.get("Authorization"), headers.toString());
    }
    try (Client noMatch = Client.builder().auth(Auth.netrc(Files.writeString(dir.resolve("other"),
        "machine other.example login alice password \"s3 cr3t\""))).build()) {
      assertEquals(401, noMatch.get(server.url("/basic-auth/alice/s3%20cr3t")).status());
    }
  }
}
