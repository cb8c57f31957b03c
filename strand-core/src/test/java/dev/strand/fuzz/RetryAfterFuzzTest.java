package dev.strand.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.strand.internal.client.ClientFuzzEntryPoints;
import java.time.Duration;
import java.time.Instant;

/** Retry-After values (delay-seconds or an HTTP-date): a non-negative delay, or none. */
class RetryAfterFuzzTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  @FuzzTest
  void retryAfter(byte[] value) {
    Duration d = ClientFuzzEntryPoints.retryAfter(Fuzzing.latin1(value), NOW);
    if (d != null && d.isNegative()) {
      throw new AssertionError("negative delay " + d);
    }
  }
}
