package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.testkit.TestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The parity table: each command line is run by curl and by {@code bin/strand}, in two directories that
 * start with the same files, against the same local servers (the testkit's, and nginx where ranges are
 * needed), and what matters is compared: the exit code always, then stdout byte for byte, or what the
 * server's {@code /echo} saw (method, path, query, body and the headers that are not deliberately
 * different: {@code User-Agent}, {@code Accept} and {@code Accept-Encoding}), or the files each left
 * behind. A difference is either fixed or listed in {@link #DELIBERATE} with why, and in the README.
 */
class CurlParityE2ETest {
  /** Where strand differs from curl on purpose; the table does not compare these. */
  static final List<String> DELIBERATE = List.of(
      "User-Agent strand/VERSION; no Accept: */*; Accept-Encoding offered and bodies decoded by default",
      "a 5 s timeout on every phase by default (curl has none)",
      "-v prints its own lines (credentials redacted); --trace-ascii is rebuilt from the request and response",
      "-Z writes each transfer's output whole, in the order they end (curl interleaves)",
      "JSON is indented and coloured on a terminal (never when piped, so not here)");

  private static TestServer server;
  private static final Pattern ECHO_FIELD = Pattern.compile("\"(method|path|query|body)\": (\"(?:[^\"\\\\]|\\\\.)*\")");

  @BeforeAll
  static void start() {
    server = TestServer.start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** What of a run is compared. */
  enum Compare {
    /** stdout, byte for byte. */
    STDOUT,
    /** The testkit's /echo answer: what the server received. */
    ECHO,
    /** The files each run left in its directory. */
    FILES,
    /** Whether stderr says anything at all (-s, -S). */
    STDERR_SILENCE,
    /** The exit code only. */
    EXIT
  }

  record Row(Compare compare, String[] args) {}

  private static Named<Row> row(String name, Compare compare, String... args) {
    return Named.of(name, new Row(compare, args));
  }

  static Stream<Named<Row>> table() {
    return Stream.of(
        row("GET", Compare.STDOUT, "{base}/small"),
        row("-s -o -", Compare.STDOUT, "-s", "-o", "-", "{base}/small"),
        row("--url", Compare.STDOUT, "--url", "{base}/small"),
        row("two URLs in turn", Compare.STDOUT, "{base}/small", "{base}/bytes/3000"),
        row("-i", Compare.STDOUT, "-i", "{base}/small"),
        row("-I", Compare.STDOUT, "-I", "{base}/small"),
        row("-X and -d", Compare.ECHO, "-X", "PATCH", "-d", "a=1", "{base}/echo"),
        row("-d twice", Compare.ECHO, "-d", "a=1", "-d", "b=2", "{base}/echo"),
        row("-d @FILE drops newlines", Compare.ECHO, "-d", "@lines.txt", "{base}/echo"),
        row("--data-raw keeps @", Compare.ECHO, "--data-raw", "@lines.txt", "{base}/echo"),
        row("--data-binary @FILE", Compare.ECHO, "--data-binary", "@lines.txt", "{base}/echo"),
        row("--data-urlencode", Compare.ECHO, "--data-urlencode", "q=a b&c", "--data-urlencode", "f@lines.txt",
            "{base}/echo"),
        row("-G", Compare.ECHO, "-G", "-d", "a=1", "--data-urlencode", "b=x y", "{base}/echo"),
        row("--url-query", Compare.ECHO, "--url-query", "q=a b", "{base}/echo?x=1"),
        row("--json", Compare.ECHO, "--json", "{\"a\": 1}", "{base}/echo"),
        row("-H", Compare.ECHO, "-H", "X-Trace: 7", "-H", "X-Other: a b", "{base}/echo"),
        row("-A", Compare.ECHO, "-A", "agent/1.0", "{base}/echo"),
        row("-e", Compare.ECHO, "-e", "http://referrer.test/page", "{base}/echo"),
        row("-u", Compare.ECHO, "-u", "user:pa ss", "{base}/echo"),
        row("--netrc-file", Compare.ECHO, "--netrc-file", "netrc.txt", "{base}/echo"),
        row("-u wins over --netrc-file", Compare.ECHO, "--netrc-file", "netrc.txt", "-u", "bob:x", "{base}/echo"),
        row("--netrc-file without the host", Compare.ECHO, "--netrc-file", "netrc.txt", "http://localhost:{port}/echo"),
        row("-b", Compare.ECHO, "-b", "a=1; b=2", "{base}/echo"),
        row("-r", Compare.ECHO, "-r", "0-99", "{base}/echo"),
        row("-T", Compare.ECHO, "-T", "lines.txt", "{base}/echo"),
        row("-o", Compare.FILES, "-s", "-o", "out.bin", "{base}/bytes/5000"),
        row("-O", Compare.FILES, "-s", "-O", "{base}/bytes/2000"),
        row("-o per URL", Compare.FILES, "-s", "-o", "a.bin", "-o", "b.bin", "{base}/bytes/100", "{base}/bytes/200"),
        row("-w", Compare.STDOUT, "-s", "-o", "/dev/null", "-w",
            "%{http_code} %{size_download} %{content_type} %{num_redirects} %{method} %{scheme} %{exitcode}\\n",
            "{base}/small"),
        row("-w %header{}", Compare.STDOUT, "-s", "-o", "/dev/null", "-w", "%header{content-length}|%{url_effective}",
            "{base}/small"),
        row("-w after -L", Compare.STDOUT, "-sL", "-o", "/dev/null", "-w", "%{num_redirects} %{url_effective}",
            "{base}/redirect/2"),
        row("-w on failure", Compare.STDOUT, "-s", "-w", "%{http_code} %{exitcode}", "http://127.0.0.1:1/"),
        row("-L", Compare.ECHO, "-L", "{base}/redirect/2"),
        row("--max-redirs", Compare.EXIT, "-sL", "--max-redirs", "1", "{base}/redirect/3"),
        row("-f", Compare.STDOUT, "-s", "-f", "{base}/status/404"),
        row("--fail-with-body", Compare.STDOUT, "-s", "--fail-with-body", "{base}/status/404"),
        row("-s hides errors", Compare.STDERR_SILENCE, "-s", "http://127.0.0.1:1/"),
        row("-sS shows them", Compare.STDERR_SILENCE, "-sS", "http://127.0.0.1:1/"),
        row("-fsSL", Compare.ECHO, "-fsSL", "{base}/redirect/1"),
        row("-m", Compare.EXIT, "-s", "-m", "1", "{base}/delay/3000"),
        row("--retry on 503", Compare.STDOUT, "-s", "--retry", "1", "--retry-delay", "0", "{base}/status/503"),
        row("-D", Compare.FILES, "-s", "-D", "head.txt", "-o", "body.bin", "{base}/small"),
        row("-K", Compare.STDOUT, "-K", "config.txt"),
        row("--resolve", Compare.STDOUT, "--resolve", "parity.test:{port}:127.0.0.1", "http://parity.test:{port}/small"),
        row("--connect-to", Compare.STDOUT, "--connect-to", "parity.test:80:127.0.0.1:{port}", "http://parity.test/small"),
        row("--limit-rate", Compare.STDOUT, "-s", "--limit-rate", "200K", "{base}/bytes/20000"),
        row("-C - resumes", Compare.FILES, "-s", "-C", "-", "-o", "partial.bin", "{nginx}/big.bin"),
        row("-Z", Compare.EXIT, "-s", "-Z", "{base}/small", "{base}/bytes/10"),
        row("a usage error", Compare.EXIT, "--max-redirs", "many", "{base}/small"),
        row("bad URL", Compare.EXIT, "-s", "http://[::1/"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("table")
  void sameAsCurl(Row row, @TempDir Path dir) throws IOException {
    Path curlDir = Files.createDirectories(dir.resolve("curl"));
    Path strandDir = Files.createDirectories(dir.resolve("strand"));
    String[] args = expand(row.args());
    for (Path d : List.of(curlDir, strandDir)) {
      Files.writeString(d.resolve("lines.txt"), "a=1\nb=2 & c\r\n");
      Files.writeString(d.resolve("netrc.txt"), "# curl's syntax\nmachine 127.0.0.1\n  login alice password s3cret\n"
          + "machine other.test login eve password no\n");
      Files.writeString(d.resolve("config.txt"), "# as curl reads it\nurl = \"" + server.url("/small")
          + "\"\nsilent\n--header \"X-From: config\"\n");
      if (row.args()[row.args().length - 1].startsWith("{nginx}")) {
        Files.write(d.resolve("partial.bin"), java.util.Arrays.copyOf(nginxFile("big.bin"), 1000));
      }
    }
    Cli.Result curl = Cli.runIn(curlDir, "curl", args);
    Cli.Result strand = Cli.runIn(strandDir, "strand", args);
    String both = "curl: " + curl + "\nstrand: " + strand;
    assertEquals(curl.exit(), strand.exit(), "exit codes differ\n" + both);
    switch (row.compare()) {
      case STDOUT -> assertArrayEquals(curl.stdoutBytes(), strand.stdoutBytes(), "stdout differs\n" + both);
      case ECHO -> assertEquals(echoed(curl.stdout()), echoed(strand.stdout()), "the server saw different requests\n" + both);
      case FILES -> assertEquals(files(curlDir), files(strandDir), "the files differ\n" + both);
      case STDERR_SILENCE -> assertEquals(curl.stderr().isBlank(), strand.stderr().isBlank(), both);
      case EXIT -> { } // compared above
    }
  }

  private static String[] expand(String[] args) {
    String[] out = new String[args.length];
    for (int i = 0; i < args.length; i++) {
      out[i] = args[i].replace("{base}", "http://127.0.0.1:" + server.port())
          .replace("{port}", Integer.toString(server.port()))
          .replace("{nginx}", args[i].contains("{nginx}") ? nginx() : "");
    }
    return out;
  }

  private static String nginx() {
    String url = System.getenv("STRAND_NGINX_URL");
    if (url == null || url.isBlank()) {
      if ("true".equals(System.getenv("CI"))) {
        throw new AssertionError("STRAND_NGINX_URL is not set on CI: run the tests through bin/test");
      }
      org.junit.jupiter.api.Assumptions.abort("STRAND_NGINX_URL is not set (bin/test starts nginx)");
    }
    return url;
  }

  private static byte[] nginxFile(String name) {
    try (var client = dev.strand.Client.create()) {
      return client.get(nginx() + "/" + name).bytes();
    }
  }

  /** What /echo says the server received, less the headers that differ on purpose. */
  private static Map<String, String> echoed(String json) {
    Map<String, String> seen = new TreeMap<>();
    Matcher m = ECHO_FIELD.matcher(json);
    while (m.find()) {
      seen.put(m.group(1), m.group(2));
    }
    int headers = json.indexOf("\"headers\": {");
    if (headers >= 0) {
      String section = json.substring(headers, json.indexOf('}', headers));
      Matcher h = Pattern.compile("\"([^\"]+)\": \\[([^\\]]*)\\]").matcher(section);
      while (h.find()) {
        String name = h.group(1).toLowerCase(java.util.Locale.ROOT);
        boolean deliberate = name.equals("accept") || name.equals("accept-encoding")
            || (name.equals("user-agent") && !h.group(2).contains("agent/1.0"));
        if (!deliberate) {
          seen.put("header " + name, h.group(2));
        }
      }
    }
    return seen;
  }

  private static Map<String, String> files(Path dir) throws IOException {
    Map<String, String> all = new TreeMap<>();
    try (Stream<Path> paths = Files.list(dir)) {
      for (Path p : paths.toList()) {
        byte[] bytes = Files.readAllBytes(p);
        all.put(p.getFileName().toString(), bytes.length + " bytes, sha-256 " + sha256(bytes));
      }
    }
    return all;
  }

  private static String sha256(byte[] bytes) {
    try {
      return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }
}
