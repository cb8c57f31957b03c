package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.strand.ConnectException;
import dev.strand.ProtocolException;
import dev.strand.ReadTimeoutException;
import dev.strand.Request;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
  private static final Request R = Request.get("http://127.0.0.1/");
  private static final Instant NOW = Instant.parse("2026-12-02T16:00:00Z");

  @Test
  void backsOffExponentiallyOnConnectFailuresAndTimeouts() {
    RetryPolicy p = new RetryPolicy(3, null);
    assertEquals(Duration.ofSeconds(1), p.afterFailure(new ConnectException("refused", R), 0));
    assertEquals(Duration.ofSeconds(2), p.afterFailure(new ReadTimeoutException("slow", R), 1));
    assertEquals(Duration.ofSeconds(4), p.afterFailure(new ConnectException("refused", R), 2));
    assertNull(p.afterFailure(new ConnectException("refused", R), 3), "no retries left");
    assertNull(p.afterFailure(new ProtocolException("garbage", R), 0), "protocol errors are not transient");
  }

  @Test
  void retriesTransientStatusesOnly() {
    RetryPolicy p = new RetryPolicy(5, Duration.ofMillis(50));
    for (int status : new int[] {408, 429, 500, 502, 503, 504}) {
      assertEquals(Duration.ofMillis(50), p.afterStatus(status, null, 0, NOW), "status " + status);
    }
    for (int status : new int[] {200, 301, 400, 404}) {
      assertNull(p.afterStatus(status, null, 0, NOW), "status " + status);
    }
  }

  @Test
  void retryAfterWinsInSecondsOrAsADateAndIsCapped() {
    RetryPolicy p = new RetryPolicy(1, null);
    assertEquals(Duration.ofSeconds(3), p.afterStatus(503, "3", 0, NOW));
    assertEquals(Duration.ofSeconds(90), p.afterStatus(429, "Wed, 02 Dec 2026 16:01:30 GMT", 0, NOW));
    assertEquals(Duration.ZERO, p.afterStatus(429, "Wed, 02 Dec 2026 15:00:00 GMT", 0, NOW), "a past date");
    assertEquals(RetryPolicy.MAX_DELAY, p.afterStatus(503, "99999999", 0, NOW));
    assertEquals(Duration.ofSeconds(1), p.afterStatus(503, "soon", 0, NOW), "invalid: normal backoff");
    assertNull(p.afterStatus(503, "1", 1, NOW), "no retries left");
  }

  @Test
  void backoffIsCappedAtTenMinutes() {
    RetryPolicy p = new RetryPolicy(100, null);
    assertEquals(Duration.ofSeconds(512), p.afterFailure(new ConnectException("x", R), 9));
    assertEquals(RetryPolicy.MAX_DELAY, p.afterFailure(new ConnectException("x", R), 10));
    assertEquals(RetryPolicy.MAX_DELAY, p.afterFailure(new ConnectException("x", R), 60));
  }
}
