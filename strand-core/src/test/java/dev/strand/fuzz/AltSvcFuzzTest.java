package dev.strand.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.strand.internal.pool.Origin;
import dev.strand.internal.pool.PoolFuzzEntryPoints;

/** Alt-Svc field values: the h3 alternative offered, or none. */
class AltSvcFuzzTest {
  private static final Origin ORIGIN = new Origin("https", "example.test", 443);

  @FuzzTest
  void altSvc(byte[] value) {
    PoolFuzzEntryPoints.altSvc(ORIGIN, Fuzzing.latin1(value), 1_000_000_000L);
  }
}
