package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProgressTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void showsBytesPercentBarRateAndEta() {
    Progress p = new Progress(new PrintStream(new ByteArrayOutputStream()), 100L << 20, 0);
    assertEquals("25.0 MiB / 100.0 MiB   25% [######------------------]  12.5 MiB/s  ETA 0:00:06",
        p.render(25L << 20, 2 * SECOND, false));
    assertEquals("100.0 MiB / 100.0 MiB  100% [########################]  50.0 MiB/s  in 0:00:02",
        p.render(100L << 20, 2 * SECOND, true));
  }

  @Test
  void unknownLengthShowsBytesAndRateOnly() {
    Progress p = new Progress(new PrintStream(new ByteArrayOutputStream()), -1, 0);
    assertEquals("1.5 KiB  1.5 KiB/s", p.render(1536, SECOND, false));
  }

  @Test
  void redrawsAtMostEveryHundredMillisecondsAndEndsTheLine() {
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    Progress p = new Progress(new PrintStream(sink, true, StandardCharsets.UTF_8), 1000, 0);
    p.update(100, 0);
    p.update(200, 50_000_000L);
    p.update(300, 100_000_000L);
    p.finish(1000, 200_000_000L);
    String out = sink.toString(StandardCharsets.UTF_8);
    assertEquals(3, out.chars().filter(c -> c == '\r').count(), out);
    assertTrue(out.endsWith("\n"), out);
    assertTrue(!out.contains("200 B"), "the update 50 ms after the previous one is skipped: " + out);
  }

  @Test
  void sizesAndClock() {
    assertEquals("0 B", Progress.size(0));
    assertEquals("1023 B", Progress.size(1023));
    assertEquals("1.0 KiB", Progress.size(1024));
    assertEquals("50.0 MiB", Progress.size(50L << 20));
    assertEquals("1:01:01", Progress.clock(3661));
  }
}
