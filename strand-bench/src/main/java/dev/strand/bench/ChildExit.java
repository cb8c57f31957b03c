package dev.strand.bench;

import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;

/** How a child JVM of the bench ends once its results are out. */
final class ChildExit {
  private ChildExit() {
  }

  /**
   * Halts this JVM. Some clients leave non-daemon threads or slow shutdown hooks behind (a default-built client
   * still waiting on {@code /never}, say), so it does not wait for them. A halt skips JFR's dump at exit: a
   * recording started with {@code -XX:StartFlightRecording=filename=...} (see {@code strand.bench.clientJvm}) is
   * stopped first, which writes its file.
   */
  static void halt() {
    System.out.flush();
    System.err.flush();
    if (FlightRecorder.isInitialized()) {
      for (Recording r : FlightRecorder.getFlightRecorder().getRecordings()) {
        try {
          r.stop();
        } catch (RuntimeException alreadyStopped) {
          // nothing to write
        }
      }
    }
    Runtime.getRuntime().halt(0);
  }
}
