package dev.strand.cli;

import java.io.PrintStream;

/**
 * A one-line progress bar for downloads to a file, redrawn in place on stderr at most every 100 ms:
 * bytes so far, percentage and bar when the length is known, rate, and ETA. Time is passed in, so
 * rendering is tested without sleeping.
 */
final class Progress {
  private static final long REDRAW_NANOS = 100_000_000L;
  private static final int BAR = 24;

  private final PrintStream err;
  private final long total;
  private final long startNanos;
  private long lastDrawNanos;
  private int lastWidth;

  /** @param total expected bytes, or {@code -1} if unknown */
  Progress(PrintStream err, long total, long startNanos) {
    this.err = err;
    this.total = total;
    this.startNanos = startNanos;
    this.lastDrawNanos = startNanos - REDRAW_NANOS;
  }

  /** Redraws if enough time has passed since the last drawing. */
  void update(long bytes, long nowNanos) {
    if (nowNanos - lastDrawNanos >= REDRAW_NANOS) {
      lastDrawNanos = nowNanos;
      draw(render(bytes, nowNanos, false));
    }
  }

  /** Draws the final state and ends the line. */
  void finish(long bytes, long nowNanos) {
    draw(render(bytes, nowNanos, true));
    err.print('\n');
    err.flush();
  }

  private void draw(String line) {
    // Pad over the previous, possibly longer, line instead of relying on an erase sequence.
    int pad = Math.max(0, lastWidth - line.length());
    lastWidth = line.length();
    err.print('\r' + line + " ".repeat(pad));
    err.flush();
  }

  /** e.g. {@code  45.0 MiB / 50.0 MiB  90% [#####################---]  12.5 MiB/s  ETA 0:00:01} */
  String render(long bytes, long nowNanos, boolean done) {
    double seconds = Math.max(1e-9, (nowNanos - startNanos) / 1e9);
    double rate = bytes / seconds;
    StringBuilder sb = new StringBuilder(96);
    sb.append(size(bytes));
    if (total > 0) {
      long pct = Math.min(100, bytes * 100 / total);
      int filled = (int) Math.min(BAR, bytes * BAR / total);
      sb.append(" / ").append(size(total)).append("  ");
      sb.append(pad(Long.toString(pct), 3)).append("% [").append("#".repeat(filled)).append("-".repeat(BAR - filled))
          .append(']');
    }
    sb.append("  ").append(size((long) rate)).append("/s");
    if (done) {
      sb.append("  in ").append(clock(Math.round(seconds)));
    } else if (total > 0 && rate > 0 && bytes < total) {
      sb.append("  ETA ").append(clock((long) Math.ceil((total - bytes) / rate)));
    }
    return sb.toString();
  }

  /** Binary units with one decimal: {@code 512 B}, {@code 1.5 KiB}, {@code 50.0 MiB}. */
  static String size(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double v = bytes;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    long tenths = Math.round(v * 10);
    return tenths / 10 + "." + tenths % 10 + " " + units[u];
  }

  static String clock(long seconds) {
    long h = seconds / 3600;
    long m = seconds / 60 % 60;
    long s = seconds % 60;
    return h + ":" + (m < 10 ? "0" : "") + m + ":" + (s < 10 ? "0" : "") + s;
  }

  private static String pad(String s, int width) {
    return " ".repeat(Math.max(0, width - s.length())) + s;
  }
}
