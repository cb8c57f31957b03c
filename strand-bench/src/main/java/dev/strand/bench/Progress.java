package dev.strand.bench;

import java.io.PrintStream;

/**
 * The one progress line on stderr: rewritten in place on a terminal, one line per update otherwise. Given the
 * run's planned seconds ({@link #plan}) and told as each step's share is done ({@link #advance}), it shows an
 * estimate of the time left, scaled by how the run has kept to its plan so far.
 */
final class Progress {

  private final PrintStream err;
  private final boolean terminal;
  private final long t0 = System.nanoTime();
  private String prefix = "";
  private int lastLength;
  private double plannedSeconds;
  private double plannedDone;
  private long doneAtNanos;

  Progress(PrintStream err, boolean terminal) {
    this.err = err;
    this.terminal = terminal;
  }

  /** Sets what the next updates are about, e.g. {@code [3/12]}. */
  synchronized void step(String prefix) {
    this.prefix = prefix;
  }

  /** The whole run should take {@code seconds} by its options (warm-ups, levels, batches). */
  synchronized void plan(double seconds) {
    plannedSeconds = seconds;
  }

  /** A step that was planned to take {@code seconds} is over. */
  synchronized void advance(double seconds) {
    plannedDone += seconds;
    doneAtNanos = System.nanoTime();
  }

  synchronized void update(String what) {
    long now = System.nanoTime();
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
    double pace = plannedDone > 0 ? (doneAtNanos - t0) / 1e9 / plannedDone : 1.0;
    double inStep = (now - (plannedDone > 0 ? doneAtNanos : t0)) / 1e9;
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
