package dev.strand.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The token bucket with explicit timestamps: no sleeps. */
class ThrottleTest {
  private static final long MS = 1_000_000;

  @Test
  void aTenthOfASecondGoesAtOnceThenBytesArePaidForAtTheRate() {
    Throttle t = new Throttle(1000, () -> 0);
    assertEquals(0, t.reserve(100, 0)); // the bucket: 100 ms worth
    assertEquals(100 * MS, t.reserve(100, 0));
    assertEquals(300 * MS, t.reserve(200, 0));
    // Idle since 600 ms: the bucket refilled (100 bytes free), the other 200 wait 200 ms.
    assertEquals(200 * MS, t.reserve(300, 700 * MS));
  }

  @Test
  void aPauseSavesUpNoMoreThanTheBucket() {
    Throttle t = new Throttle(1000, () -> 0);
    t.reserve(100, 0);
    // Ten seconds idle: only 100 ms worth (100 bytes) passes free, the rest waits.
    assertEquals(400 * MS, t.reserve(500, 10_000 * MS));
  }

  @Test
  void aChunkLargerThanTheBucketWaitsForItsWholeSize() {
    Throttle t = new Throttle(1_000_000, () -> 0);
    assertEquals(900 * MS, t.reserve(1_000_000, 0));
  }
}
