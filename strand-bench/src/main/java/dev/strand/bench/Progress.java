package dev.strand.bench;

import java.io.PrintStream;
import java.util.function.LongSupplier;

/**
 * The one progress line on stderr: rewritten in place on a terminal, one line per update otherwise. Given the
 * run's planned seconds ({@link #plan}) and told as each step's share is done ({@link #advance}), it shows an
 * estimate of the time left, scaled by how the run has kept to its plan so far.
 */
final class Progress {

  private final PrintStream err;
  private final boolean terminal;
  private final LongSupplier clock;
  private final long t0;
  private String prefix = "";
  private int lastLength;
  private double plannedSeconds;
  private long planStart;
  private double plannedDone;
  private long doneAtNanos;

  Progress(PrintStream err, boolean terminal) {
    this(err, terminal, System::nanoTime);
  }

  /** With the clock given (tests), in nanoseconds. */
  Progress(PrintStream err, boolean terminal, LongSupplier clock) {
    this.err = err;
    this.terminal = terminal;
    this.clock = clock;
    this.t0 = clock.getAsLong();
  }

  /** Sets what the next updates are about, e.g. {@code [3/12]}. */
  synchronized void step(String prefix) {
    this.prefix = prefix;
  }

  /** The whole run should take {@code seconds} by its options (warm-ups, levels, batches). */
  synchronized void plan(double seconds) {
    plannedSeconds = seconds;
    planStart = clock.getAsLong(); // what came before (server start, defaults probes) is not in the plan
  }

  /** A step that was planned to take {@code seconds} is over. */
  synchronized void advance(double seconds) {
    plannedDone += seconds;
    doneAtNanos = clock.getAsLong();
  }

  synchronized void update(String what) {
    long now = clock.getAsLong();
    long s = (now - t0) / 1_000_000_000L;
    String line = String.format("%s %s  (%d:%02d%s)", prefix, what, s / 60, s % 60, eta(now));
    if (terminal) {
      err.print("\r" + line + " ".repeat(Math.max(0, lastLength - line.length())));
      lastLength = line.length();
    } else {
      err.println(line);
    }
    err.flush();
  }

  private String eta(long now) {
    if (plannedSeconds <= 0) {
      return "";
    }
    // Planned time left, stretched by the pace so far (JVM starts and probes are not in the plan).
    double pace = plannedDone > 0 ? (doneAtNanos - planStart) / 1e9 / plannedDone : 1.0;
    double inStep = (now - (plannedDone > 0 ? doneAtNanos : planStart)) / 1e9;
    long left = Math.round(Math.max(0, (plannedSeconds - plannedDone) * pace - inStep));
    return String.format(", about %d:%02d left", left / 60, left % 60);
  }

  synchronized void done() {
    if (terminal && lastLength > 0) {
      err.print("\r" + " ".repeat(lastLength) + "\r");
      err.flush();
    }
    lastLength = 0;
  }
}
