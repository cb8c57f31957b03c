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
 * The seeds' fastest Python client as a reference: Debian's python3-aiohttp under /usr/bin/python3, running
 * the same closed loop (N lanes) as the Java children, from a script shipped in this jar.
 */
final class AiohttpRunner {

  static final String PYTHON = "/usr/bin/python3";
  static final String SETUP = "aiohttp ClientSession(TCPConnector(limit=N)), N asyncio lanes, await r.read(), "
      + "status and length checked; one python process per scenario";

  private AiohttpRunner() {
  }

  static boolean available() {
    if (!Files.isExecutable(Path.of(PYTHON))) {
      return false;
    }
    try {
      Process p = new ProcessBuilder(PYTHON, "-c", "import aiohttp").redirectErrorStream(true).start();
      p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
      return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  static String version() {
    try {
      Process p = new ProcessBuilder(PYTHON, "-c", "import aiohttp,sys; print(aiohttp.__version__, sys.version.split()[0])")
          .redirectErrorStream(true).start();
      String v = new String(p.getInputStream().readAllBytes()).strip();
      p.waitFor(20, TimeUnit.SECONDS);
      return v;
    } catch (IOException | InterruptedException e) {
      return "?";
    }
  }

  static List<Cell> run(URI url, String scenario, List<Integer> levels, int expect, Duration warmup, Duration rewarm,
      Duration each, int batches, URI statsBase, Consumer<String> progress, Path log) {
    List<Cell> cells = new ArrayList<>();
    Path script;
    try (InputStream in = AiohttpRunner.class.getResourceAsStream("aiohttp_bench.py")) {
      script = Files.createTempFile("strand-bench-aiohttp", ".py");
      Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException | NullPointerException e) {
      for (int c : levels) {
        cells.add(Cell.failed("aiohttp", "reference", scenario, c, "bench script missing: " + e));
      }
      return cells;
    }
    List<String> cmd = new ArrayList<>(List.of(PYTHON, script.toString(), "--url", url.toString(),
        "--scenario", scenario, "--levels", levels.stream().map(String::valueOf).reduce((a, b) -> a + "," + b).orElse(""),
        "--expect-bytes", Integer.toString(expect), "--warmup", secs(warmup), "--rewarm", secs(rewarm),
        "--duration", secs(each), "--batches", Integer.toString(batches)));
    if (statsBase != null) {
      cmd.addAll(List.of("--stats-url", statsBase.toString()));
    }
    Duration budget = warmup.plus(rewarm.plus(each.multipliedBy(batches)).plusSeconds(40).multipliedBy(levels.size()))
        .plusSeconds(60);
    Children.Outcome o = Children.run(cmd, budget, progress, log);
    ObjectMapper json = new ObjectMapper();
    for (String line : o.results()) {
      try {
        cells.add(json.readValue(line, Cell.class));
      } catch (IOException e) {
        progress.accept("aiohttp: unreadable result line: " + line);
      }
    }
    for (int i = cells.size(); i < levels.size(); i++) {
      cells.add(Cell.failed("aiohttp", "reference", scenario, levels.get(i), o.describeFailure()));
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
