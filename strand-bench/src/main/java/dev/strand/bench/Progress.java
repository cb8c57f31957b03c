package dev.strand.bench;

import java.io.PrintStream;

/** The one progress line on stderr: rewritten in place on a terminal, one line per update otherwise. */
final class Progress {

  private final PrintStream err;
  private final boolean terminal;
  private final long t0 = System.nanoTime();
  private String prefix = "";
  private int lastLength;

  Progress(PrintStream err, boolean terminal) {
    this.err = err;
    this.terminal = terminal;
  }

  /** Sets what the next updates are about, e.g. {@code [3/12]}. */
  synchronized void step(String prefix) {
    this.prefix = prefix;
  }

  synchronized void update(String what) {
    long s = (System.nanoTime() - t0) / 1_000_000_000L;
    String line = String.format("%s %s  (%d:%02d)", prefix, what, s / 60, s % 60);
    if (terminal) {
      err.print("\r" + line + " ".repeat(Math.max(0, lastLength - line.length())));
      lastLength = line.length();
    } else {
      err.println(line);
    }
    err.flush();
  }

  synchronized void done() {
    if (terminal && lastLength > 0) {
      err.print("\r" + " ".repeat(lastLength) + "\r");
      err.flush();
    }
    lastLength = 0;
  }
}
