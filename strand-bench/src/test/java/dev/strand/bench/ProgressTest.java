package dev.strand.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The time-left estimate: the plan left, stretched by the pace so far, less the time spent in the current step. */
class ProgressTest {
  private final AtomicLong now = new AtomicLong();
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final Progress progress = new Progress(new PrintStream(out, true, StandardCharsets.UTF_8), false, now::get);

  private String lastLine() {
    String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
    return lines[lines.length - 1];
  }

  private void at(long seconds) {
    now.set(TimeUnit.SECONDS.toNanos(seconds));
  }

  @Test
  void whatCameBeforeThePlanDoesNotCountAndThePaceStretchesTheRest() {
    at(20); // server start and probes: not planned
    progress.plan(100);
    progress.update("first step");
    assertTrue(lastLine().endsWith("(0:20, about 1:40 left)"), lastLine());
    at(120); // the first 50 planned seconds took 100: twice as slow as planned
    progress.advance(50);
    at(130);
    progress.update("second step");
    assertTrue(lastLine().endsWith("(2:10, about 1:30 left)"), lastLine());
    at(250);
    progress.advance(50);
    progress.update("done");
    assertTrue(lastLine().endsWith("about 0:00 left)"), lastLine());
  }

  @Test
  void withoutAPlanThereIsNoEstimate() {
    at(65);
    progress.update("probing");
    assertTrue(lastLine().endsWith("(1:05)"), lastLine());
  }
}
