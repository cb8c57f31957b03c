package dev.strand.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A soak shrunk to seconds: both phases run, every request is accounted for, the report has its sections. */
class SoakTest {

  @Test
  @Timeout(180)
  void tinySoakAccountsForEveryRequest(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = BenchMain.run(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        "--soak", "--requests", "2000", "--in-flight", "20", "--phase-seconds", "60", "--out", dir.toString());
    String stdout = out.toString(StandardCharsets.UTF_8);
    List<SoakPhase> phases = Report.json().readValue(dir.resolve("soak.json").toFile(),
        new TypeReference<List<SoakPhase>>() { });
    assertEquals(2, phases.size(), stdout + err);
    for (SoakPhase p : phases) {
      assertEquals(2000, p.sent(), p.toString());
      assertEquals(p.sent(), p.ok() + p.failureCount() + p.unexplainedCount(), p.toString());
      assertTrue(p.memory().samples() >= 1, p.toString());
    }
    SoakPhase direct = phases.get(0);
    assertEquals(2000, direct.ok(), direct.toString());
    assertTrue(direct.clean(), direct.toString());
    assertTrue(phases.get(1).injected().values().stream().mapToLong(Long::longValue).sum() > 0, stdout);
    assertTrue(stdout.contains("# Strand soak") && stdout.contains("| faults |"), stdout);
    // The exit code follows the faults phase: 1 when something there is unexplained (a core bug), else 0.
    assertEquals(phases.get(1).clean() ? 0 : 1, code, stdout);
  }
}
