package dev.strand.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The seeds' Python clients as references, from Debian's packages under /usr/bin/python3: aiohttp and httpx on
 * asyncio, requests on threads, each running the same closed loop (N lanes) as the Java children, from one script
 * shipped in this jar ({@code python_bench.py}).
 */
enum PythonRunner {
  AIOHTTP("aiohttp", "python3-aiohttp", "aiohttp ClientSession(TCPConnector(limit=N)), N asyncio lanes, await r.read()"),
  HTTPX("httpx", "python3-httpx", "httpx AsyncClient(limits=Limits(max_connections=N)), N asyncio lanes, r.content"),
  REQUESTS("requests", "python3-requests",
      "requests Session with HTTPAdapter(pool_maxsize=N, pool_block=True), N threads, r.content");

  static final String PYTHON = "/usr/bin/python3";

  private final String client;
  private final String debianPackage;
  private final String setup;

  PythonRunner(String client, String debianPackage, String setup) {
    this.client = client;
    this.debianPackage = debianPackage;
    this.setup = setup;
  }

  /** The runner for a client name of the command line, or null when it is not a Python reference. */
  static PythonRunner named(String client) {
    for (PythonRunner r : values()) {
      if (r.client.equals(client)) {
        return r;
      }
    }
    return null;
  }

  String client() {
    return client;
  }

  /** For the report's setup table: how it is driven, and the versions. */
  String setup() {
    return setup + ", status and length checked; one python process per scenario (" + client + " " + version() + ")";
  }

  /** Why it is not in this run: the module is not importable. */
  String missing() {
    return client + " is not importable by " + PYTHON + " (Debian package " + debianPackage + "): not in this run.";
  }

  boolean available() {
    if (!Files.isExecutable(Path.of(PYTHON))) {
      return false;
    }
    try {
      Process p = new ProcessBuilder(PYTHON, "-c", "import " + client).redirectErrorStream(true).start();
      p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
      return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  private String version() {
    try {
      Process p = new ProcessBuilder(PYTHON, "-c", "import " + client + ",sys; print(" + client
          + ".__version__ + ', Python ' + sys.version.split()[0])").redirectErrorStream(true).start();
      String v = new String(p.getInputStream().readAllBytes()).strip();
      p.waitFor(20, TimeUnit.SECONDS);
      return v;
    } catch (IOException | InterruptedException e) {
      return "?";
    }
  }

  List<Cell> run(URI url, String scenario, List<Integer> levels, int expect, Duration warmup, Duration rewarm,
      Duration each, int batches, boolean memory, URI statsBase, Consumer<String> progress, Path log) {
    List<Cell> cells = new ArrayList<>();
    Path script;
    try (InputStream in = PythonRunner.class.getResourceAsStream("python_bench.py")) {
      script = Files.createTempFile("strand-bench-" + client, ".py");
      Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException | NullPointerException e) {
      for (int c : levels) {
        cells.add(Cell.failed(client, "reference", scenario, c, "bench script missing: " + e));
      }
      return cells;
    }
    List<String> cmd = new ArrayList<>(List.of(PYTHON, script.toString(), "--client", client, "--url", url.toString(),
        "--scenario", scenario, "--levels", levels.stream().map(String::valueOf).reduce((a, b) -> a + "," + b).orElse(""),
        "--expect-bytes", Integer.toString(expect), "--warmup", secs(warmup), "--rewarm", secs(rewarm),
        "--duration", secs(each), "--batches", Integer.toString(batches)));
    if (statsBase != null) {
      cmd.addAll(List.of("--stats-url", statsBase.toString()));
    }
    if (memory) {
      cmd.add("--memory");
    }
    Duration budget = warmup.plus(rewarm.plus(each.multipliedBy(batches)).plusSeconds(40).multipliedBy(levels.size()))
        .plusSeconds(60);
    Children.Outcome o = Children.run(cmd, budget, progress, log);
    ObjectMapper json = new ObjectMapper();
    for (String line : o.results()) {
      try {
        cells.add(json.readValue(line, Cell.class));
      } catch (IOException e) {
        progress.accept(client + ": unreadable result line: " + line);
      }
    }
    for (int i = cells.size(); i < levels.size(); i++) {
      cells.add(Cell.failed(client, "reference", scenario, levels.get(i), o.describeFailure()));
    }
    try {
      Files.deleteIfExists(script);
    } catch (IOException e) {
      // A temp file left behind is harmless.
    }
    return cells;
  }

  private static String secs(Duration d) {
    return Double.toString(d.toMillis() / 1000.0);
  }
}
