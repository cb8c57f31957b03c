package dev.strand.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServer;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The references run when installed (Debian: wrk, python3-aiohttp; bin/test installs both); skipped
 * otherwise, except on CI, where a missing reference is a failure.
 */
class ReferenceRunnersTest {
  private static void requireInstalled(boolean available, String what) {
    if (!available && System.getenv("CI") != null) {
      fail(what + " is not installed on CI: run the tests through bin/test, which installs it");
    }
    assumeTrue(available, what + " not installed");
  }

  @ParameterizedTest
  @EnumSource(PythonRunner.class)
  @Timeout(60)
  void eachPythonClientMeasuresAndChecksBodies(PythonRunner python) {
    requireInstalled(python.available(), python.client());
    try (TestServer server = TestServer.builder().host("127.0.0.1").port(0).build()) {
      URI base = server.baseUri();
      List<Cell> cells = python.run(base.resolve("/small"), "/small", List.of(2), Payloads.SMALL.length,
          Duration.ofMillis(300), Duration.ofMillis(100), Duration.ofMillis(300), 2, true, base, s -> { }, null);
      assertEquals(1, cells.size());
      Cell c = cells.getFirst();
      assertEquals("ok", c.status(), String.valueOf(c));
      assertEquals(2, c.memory().inFlight(), "memory is per level's requests in flight");
      assertEquals(-1, c.memory().heapBytes(), "a Python process has a resident set, not a JVM heap");
      assertNull(c.memory().liveBytesPerRequest());
      assertEquals(2, c.batchRps().size());
      assertTrue(c.connections() != null && c.connections() <= 2, "connections " + c.connections());

      List<Cell> wrong = python.run(base.resolve("/small"), "/small", List.of(1), 1,
          Duration.ofMillis(200), Duration.ofMillis(100), Duration.ofMillis(200), 1, false, null, s -> { }, null);
      assertEquals("failed", wrong.getFirst().status());
      assertTrue(wrong.getFirst().error().contains("body length"), wrong.getFirst().error());
    }
  }

  @Test
  @Timeout(60)
  void wrkLevelIsParsedIntoACell() {
    requireInstalled(WrkRunner.available(), "wrk");
    try (TestServer server = TestServer.builder().host("127.0.0.1").port(0).build()) {
      URI base = server.baseUri();
      Cell c = WrkRunner.level(base.resolve("/small"), "/small", 2, Duration.ZERO, Duration.ofSeconds(1), 1, base,
          s -> { });
      assertEquals("ok", c.status(), String.valueOf(c));
      assertTrue(c.rps() > 0 && c.p50Ms() != null && c.cpuUsPerRequest() != null, String.valueOf(c));
    }
  }
}
