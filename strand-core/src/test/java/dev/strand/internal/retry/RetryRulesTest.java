package dev.strand.internal.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.ConnectException;
import dev.strand.ConnectTimeoutException;
import dev.strand.PoolTimeoutException;
import dev.strand.ProtocolException;
import dev.strand.ReadTimeoutException;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.RetryPolicy;
import dev.strand.TlsException;
import dev.strand.TransportException;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;

/** The retry decisions as pure steps: which failures and statuses, which methods, which waits. */
class RetryRulesTest {
  private static final RetryPolicy POLICY = RetryPolicy.defaults();
  private static final DoubleSupplier HALF = () -> 0.5;
  private static final DoubleSupplier ALMOST_ONE = () -> 0.999999;
  private static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");

  private static Request get() {
    return Request.get("http://127.0.0.1/x");
  }

  private static Request post() {
    return Request.builder("POST", "http://127.0.0.1/x").body("a=1").build();
  }

  @Test
  void connectFailuresAreRetriedWhateverTheMethod() {
    Request post = post();
    assertTrue(RetryRules.afterFailure(POLICY, post, new ConnectException("refused", post), 1, HALF) != null);
    assertTrue(RetryRules.afterFailure(POLICY, post, new ConnectTimeoutException("slow", post), 1, HALF) != null);
  }

  @Test
  void failuresAfterSendingAreRetriedOnlyWhenIdempotent() {
    Request post = post();
    TransportException reset = new TransportException("connection reset", post);
    assertNull(RetryRules.afterFailure(POLICY, post, reset, 1, HALF));
    assertNull(RetryRules.afterFailure(POLICY, post, new ReadTimeoutException("read", post), 1, HALF));
    assertTrue(RetryRules.afterFailure(POLICY, get(), new ReadTimeoutException("read", get()), 1, HALF) != null);
    for (String method : new String[] {"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE", "QUERY"}) {
      Request r = Request.builder(method, "http://127.0.0.1/").build();
      assertTrue(RetryRules.afterFailure(POLICY, r, new TransportException("reset", r), 1, HALF) != null, method);
    }
    Request keyed = post().toBuilder().header("Idempotency-Key", "k-1").build();
    assertTrue(RetryRules.afterFailure(POLICY, keyed, new TransportException("reset", keyed), 1, HALF) != null);
    RetryPolicy optIn = POLICY.toBuilder().retryNonIdempotent(true).build();
    assertTrue(RetryRules.afterFailure(optIn, post, reset, 1, HALF) != null);
  }

  @Test
  void tlsProtocolPoolAndOtherFailuresAreNotRetried() {
    Request r = get();
    assertNull(RetryRules.afterFailure(POLICY, r, new ProtocolException("bad", r), 1, HALF));
    assertNull(RetryRules.afterFailure(POLICY, r, new PoolTimeoutException("full", r), 1, HALF));
    assertNull(RetryRules.afterFailure(POLICY, r, new TlsException(TlsException.Reason.UNKNOWN_CA, "untrusted", r), 1, HALF));
    assertNull(RetryRules.afterFailure(POLICY, r, new IllegalStateException("user code"), 1, HALF));
  }

  @Test
  void aOneShotBodyIsNeverReplayed() {
    Request r = Request.builder("PUT", "http://127.0.0.1/x")
        .body(RequestBody.ofInputStream(new ByteArrayInputStream(new byte[3]), "application/octet-stream")).build();
    assertNull(RetryRules.afterFailure(POLICY, r, new ConnectException("refused", r), 1, HALF));
    assertNull(RetryRules.afterStatus(POLICY, r, 503, null, 1, NOW, HALF));
  }

  @Test
  void attemptsAreCounted() {
    Request r = get();
    assertTrue(RetryRules.afterFailure(POLICY, r, new ConnectException("refused", r), 2, HALF) != null);
    assertNull(RetryRules.afterFailure(POLICY, r, new ConnectException("refused", r), 3, HALF));
    assertNull(RetryRules.afterStatus(POLICY, r, 503, null, 3, NOW, HALF));
    assertNull(RetryRules.afterFailure(RetryPolicy.none(), r, new ConnectException("refused", r), 1, HALF));
  }

  @Test
  void statusesAreThePolicys() {
    Request post = post();
    assertTrue(RetryRules.afterStatus(POLICY, post, 429, null, 1, NOW, HALF) != null);
    assertTrue(RetryRules.afterStatus(POLICY, post, 503, null, 1, NOW, HALF) != null);
    assertNull(RetryRules.afterStatus(POLICY, post, 500, null, 1, NOW, HALF));
    assertNull(RetryRules.afterStatus(POLICY, post, 200, null, 1, NOW, HALF));
    RetryPolicy curl = POLICY.toBuilder().retryStatuses(408, 429, 500, 502, 503, 504).build();
    assertTrue(RetryRules.afterStatus(curl, post, 502, null, 1, NOW, HALF) != null);
  }

  @Test
  void retryAfterSetsTheWaitCappedByTheMaxDelay() {
    Request r = get();
    assertEquals(Duration.ofSeconds(3), RetryRules.afterStatus(POLICY, r, 503, "3", 1, NOW, HALF));
    assertEquals(Duration.ofSeconds(10), RetryRules.afterStatus(POLICY, r, 503, "3600", 1, NOW, HALF));
    assertEquals(Duration.ofSeconds(7),
        RetryRules.afterStatus(POLICY, r, 429, "Fri, 04 Dec 2026 10:00:07 GMT", 1, NOW, HALF));
    assertEquals(Duration.ZERO, RetryRules.afterStatus(POLICY, r, 429, "Fri, 04 Dec 2026 09:00:00 GMT", 1, NOW, HALF));
  }

  @Test
  void garbledNegativeOrHugeRetryAfterFallsBackToBackoff() {
    Request r = get();
    Duration backoff = RetryRules.backoff(POLICY, 1, HALF);
    for (String bad : new String[] {"-5", "soon", "1.5", "99999999999999999999", "Friday", " "}) {
      assertEquals(backoff, RetryRules.afterStatus(POLICY, r, 503, bad, 1, NOW, HALF), bad);
      assertNull(RetryRules.retryAfter(bad, NOW), bad);
    }
  }

  @Test
  void backoffIsFullJitterUnderADoublingBound() {
    // bounds 100, 200, 400 ms ... up to 10 s
    assertEquals(Duration.ofMillis(50), RetryRules.backoff(POLICY, 1, HALF));
    assertEquals(Duration.ofMillis(100), RetryRules.backoff(POLICY, 2, HALF));
    assertEquals(Duration.ofMillis(200), RetryRules.backoff(POLICY, 3, HALF));
    assertEquals(Duration.ZERO, RetryRules.backoff(POLICY, 3, () -> 0.0));
    assertEquals(Duration.ofSeconds(5), RetryRules.backoff(POLICY, 20, HALF));
    assertTrue(RetryRules.backoff(POLICY, 200, ALMOST_ONE).compareTo(Duration.ofSeconds(10)) <= 0);
    RetryPolicy fixed = POLICY.toBuilder().fixedDelay(Duration.ofMillis(250)).build();
    assertEquals(Duration.ofMillis(250), RetryRules.backoff(fixed, 1, HALF));
    assertEquals(Duration.ofMillis(250), RetryRules.backoff(fixed, 9, () -> 0.0));
    assertEquals(Duration.ofSeconds(2), RetryRules.afterStatus(fixed, get(), 503, "2", 1, NOW, HALF), "Retry-After wins");
    assertEquals(Duration.ofSeconds(10), RetryRules.afterStatus(fixed, get(), 503, "60", 1, NOW, HALF), "up to maxDelay");
  }

  @Test
  void aStaleConnectionResendsAnIdempotentRequestOnce() {
    assertTrue(RetryRules.afterStaleConnection(get(), 0));
    assertFalse(RetryRules.afterStaleConnection(get(), RetryRules.STALE_CONNECTION_RESENDS), "a second failure is an answer");
    assertFalse(RetryRules.afterStaleConnection(post(), 0), "the server may have read it before closing");
    Request keyed = Request.builder("POST", "http://127.0.0.1/x").header("Idempotency-Key", "k1").body("a=1").build();
    assertTrue(RetryRules.afterStaleConnection(keyed, 0));
    assertFalse(RetryRules.afterStaleConnection(oneShot("PUT"), 0), "a one-shot body is never sent twice");
  }

  @Test
  void anUnprocessedRequestIsResentWhateverItsMethodAFewTimes() {
    for (int done = 0; done < RetryRules.UNPROCESSED_RESENDS; done++) {
      assertTrue(RetryRules.afterUnprocessed(post(), done), "resend " + (done + 1));
    }
    assertFalse(RetryRules.afterUnprocessed(post(), RetryRules.UNPROCESSED_RESENDS), "not forever");
    assertFalse(RetryRules.afterUnprocessed(oneShot("POST"), 0));
  }

  private static Request oneShot(String method) {
    return Request.builder(method, "http://127.0.0.1/x")
        .body(RequestBody.ofInputStream(new ByteArrayInputStream(new byte[3]), "application/octet-stream")).build();
  }
}
