package dev.strand.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.TestServer;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class DefaultsProbeTest {

  @Test
  @Timeout(10)
  void theWatchdogEndsACallThatNeverReturns() {
    long t0 = System.nanoTime();
    String outcome = DefaultsProbe.watch(() -> new java.util.concurrent.CompletableFuture<>().get(),
        Duration.ofSeconds(1));
    double took = (System.nanoTime() - t0) / 1e9;
    assertEquals("still waiting after 1 s (watchdog)", outcome);
    assertTrue(took < 3, "took " + took);
  }

  @Test
  @Timeout(10)
  void aCallThatFailsIsReportedWithItsTime() {
    String outcome = DefaultsProbe.watch(() -> {
      throw new java.net.SocketTimeoutException("x");
    }, Duration.ofSeconds(1));
    assertTrue(outcome.startsWith("SocketTimeoutException (x) after 0."), outcome);
  }

  @Test
  @Timeout(20)
  void jdkDefaultsOnNeverStillWaitWhenTheWatchdogFires() {
    try (TestServer server = TestServer.builder().host("127.0.0.1").port(0).build()) {
      URI never = URI.create(server.url("/never"));
      DefaultsProbe.Defaults d = DefaultsProbe.probe("jdk", never, Duration.ofSeconds(2));
      assertEquals("still waiting after 2 s (watchdog)", d.never());
      assertEquals("none", d.connectTimeout());
      assertEquals("NEVER", d.redirects());
    }
  }
}
