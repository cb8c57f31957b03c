package dev.strand.internal.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The bandwidth-delay estimator, with explicit byte counts and times. */
class WindowTunerTest {
  private static final int MIB = 1024 * 1024;
  private static final long MS = 1_000_000;

  @Test
  void aRoundTripThatFillsTheWindowDoublesTheSample() {
    WindowTuner t = new WindowTuner(MIB, 16 * MIB);
    assertTrue(t.onRead(16_384, 0), "the first read starts a sample");
    assertFalse(t.onRead(MIB - 16_384, 10 * MS), "one sample at a time");
    assertEquals(2 * MIB, t.onPingAck(50 * MS));
    assertEquals(2 * MIB, t.streamWindow());
    assertEquals(0, t.connectionIncrement(), "16 MiB already covers twice a 2 MiB stream window");
  }

  @Test
  void aSampleBelowTwoThirdsOfTheWindowChangesNothing() {
    WindowTuner t = new WindowTuner(MIB, 16 * MIB);
    t.onRead(600 * 1024, 0);
    assertEquals(0, t.onPingAck(MS));
    assertEquals(MIB, t.streamWindow());
  }

  @Test
  void aSlowerSampleThanTheBestDoesNotGrowTheWindow() {
    WindowTuner t = new WindowTuner(MIB, 16 * MIB);
    t.onRead(MIB, 0);
    assertEquals(2 * MIB, t.onPingAck(10 * MS)); // 1 MiB in 10 ms
    t.onRead(2 * MIB, 20 * MS);
    assertEquals(0, t.onPingAck(120 * MS), "2 MiB in 100 ms: a stall, not a wider link");
  }

  @Test
  void theWindowsStopAtTheirBounds() {
    WindowTuner t = new WindowTuner(MIB, 16 * MIB);
    long now = 0;
    for (int i = 0; i < 10; i++) {
      t.onRead(t.streamWindow(), now);
      t.onPingAck(now + 10 * MS);
      now += 20 * MS;
    }
    assertEquals(WindowTuner.MAX_STREAM_WINDOW, t.streamWindow());
    assertEquals(WindowTuner.MAX_CONNECTION_WINDOW - 16 * MIB, t.connectionIncrement());
    assertEquals(0, t.connectionIncrement());
    assertFalse(t.onRead(MIB, now), "no more samples once the window is at its bound");
  }
}
