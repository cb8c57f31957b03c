package dev.strand;

import dev.strand.spi.StreamingResponses;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.strand.testkit.TestServerExtension;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** Proves the extension fails a test that leaves a call running on a client it did not close, and only that test. */
class NoCallLeftBehindExtensionTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  // Only set while the engine runs Careless, so Careless does nothing when run on its own.
  private static volatile boolean armed;
  private static volatile Client careless;

  @Test
  void aTestThatLeavesACallRunningFailsAndItsNeighbourPasses() {
    Events tests;
    armed = true;
    try {
      tests = EngineTestKit.engine("junit-jupiter").selectors(selectClass(Careless.class)).execute().testEvents();
    } finally {
      armed = false;
      if (careless != null) {
        careless.close();
      }
    }
    tests.assertStatistics(s -> s.started(2).succeeded(1).failed(1));
    Throwable failure = tests.failed().list().get(0)
        .getRequiredPayload(org.junit.platform.engine.TestExecutionResult.class).getThrowable().orElseThrow();
    assertInstanceOf(AssertionError.class, failure);
    assertTrue(failure.getMessage().contains("1 connection(s) in use"), failure.getMessage());
  }

  @Test
  void itWatchesEveryCoreTest() {
    assertTrue(dev.strand.internal.netty.OpenEngines.tracked(), "the build runs core tests with -Dstrand.trackEngines=true");
    assertTrue(NoCallLeftBehindExtension.watchedTests() > 0, "registered by autodetection, so this test is watched too");
  }

  @ExtendWith(NoCallLeftBehindExtension.class)
  static class Careless {
    @Test
    void leavesACallRunning() {
      Assumptions.assumeTrue(armed);
      // Longer than the extension's wait for a client to settle, so the call is still running when it looks.
      careless = Client.builder().timeout(Timeout.of(java.time.Duration.ofSeconds(60))).build();
      careless.async().get(server.url("/never")); // the server never answers; nobody waits or cancels
    }

    @Test
    void readsAndCloses() {
      Assumptions.assumeTrue(armed);
      try (Client c = Client.builder().build()) {
        c.get(server.url("/small"));
      }
      try (Client c = Client.builder().build();
          StreamingResponse r = c.stream(Request.get(server.url("/small")))) {
        StreamingResponses.body(r).close();
      }
    }
  }
}
