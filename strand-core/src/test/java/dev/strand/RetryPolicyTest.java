package dev.strand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.io.ByteArrayInputStream;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Retries through a client: what is retried, how long it waits, what the caller sees, and the budget. */
@ExtendWith(NettyLeakDetectorExtension.class)
class RetryPolicyTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  private static final RetryPolicy QUICK = RetryPolicy.builder().maxAttempts(3)
      .backoff(Duration.ofMillis(1), Duration.ofMillis(20)).build();

  /** Answers each request with the next status of {@code statuses} (the last repeats), Retry-After as given. */
  private static MockTransport statuses(String retryAfter, int... statuses) {
    AtomicInteger n = new AtomicInteger();
    return MockTransport.of(r -> {
      int status = statuses[Math.min(n.getAndIncrement(), statuses.length - 1)];
      Response.Builder b = Response.builder(status).body("attempt " + n.get());
      if (retryAfter != null && status != 200) {
        b.header("Retry-After", retryAfter);
      }
      return b.build();
    });
  }

  @Test
  void aClientRetriesNothingByDefault() {
    MockTransport mock = statuses(null, 503, 200);
    try (Client client = Client.builder().transport(mock).build()) {
      assertEquals(503, client.get("http://127.0.0.1/x").status());
      assertEquals(1, mock.requests().size());
    }
  }

  @Test
  void a503IsRetriedAndTheFinalResponseReturned() {
    MockTransport mock = statuses(null, 503, 429, 200);
    List<RetryPolicy.Retry> seen = new CopyOnWriteArrayList<>();
    try (Client client = Client.builder().transport(mock).retry(QUICK.toBuilder().onRetry(seen::add).build()).build()) {
      Response r = client.post("http://127.0.0.1/x", RequestBody.of("body"));
      assertEquals(200, r.status());
      assertEquals("attempt 3", r.text());
      assertEquals(3, mock.requests().size());
      assertEquals(List.of(2, 3), seen.stream().map(RetryPolicy.Retry::nextAttempt).toList());
      assertEquals("HTTP 503", seen.get(0).reason());
    }
  }

  @Test
  void theLastAttemptsResponseIsReturnedAsItIs() {
    MockTransport mock = statuses(null, 503);
    try (Client client = Client.builder().transport(mock).retry(QUICK).build()) {
      Response r = client.get("http://127.0.0.1/x");
      assertEquals(503, r.status());
      assertEquals("attempt 3", r.text());
    }
  }

  @Test
  void retryAfterSetsTheWait() {
    MockTransport mock = statuses("1", 503, 200);
    List<RetryPolicy.Retry> seen = new CopyOnWriteArrayList<>();
    RetryPolicy policy = QUICK.toBuilder().backoff(Duration.ofMillis(1), Duration.ofSeconds(5)).onRetry(seen::add).build();
    try (Client client = Client.builder().transport(mock).retry(policy).build()) {
      long start = System.nanoTime();
      assertEquals(200, client.get("http://127.0.0.1/x").status());
      assertTrue(System.nanoTime() - start >= 950_000_000L, "waited the second Retry-After asked for");
      assertEquals(Duration.ofSeconds(1), seen.get(0).delay());
    }
  }

  @Test
  void aPostIsNotRetriedAfterAFailureThatMayHaveReachedTheServerUnlessItCarriesAnIdempotencyKey() {
    AtomicInteger calls = new AtomicInteger();
    MockTransport mock = MockTransport.of(r -> {
      if (calls.incrementAndGet() == 1) {
        throw new TransportException("connection reset by peer", r);
      }
      return Response.builder(200).build();
    });
    try (Client client = Client.builder().transport(mock).retry(QUICK).build()) {
      assertThrows(TransportException.class, () -> client.post("http://127.0.0.1/x", RequestBody.of("a")));
      assertEquals(1, mock.requests().size());
      calls.set(0);
      Request keyed = Request.builder("POST", "http://127.0.0.1/x").body("a").header("Idempotency-Key", "k1").build();
      assertEquals(200, client.send(keyed).status());
      assertEquals(3, mock.requests().size());
      calls.set(0);
      assertEquals(200, client.get("http://127.0.0.1/x").status(), "GET is idempotent");
    }
  }

  @Test
  void aOneShotBodyIsNeverReplayed() {
    MockTransport mock = statuses(null, 503, 200);
    try (Client client = Client.builder().transport(mock).retry(QUICK).build()) {
      Request r = Request.builder("PUT", "http://127.0.0.1/x")
          .body(RequestBody.ofInputStream(new ByteArrayInputStream(new byte[] {1, 2}), "application/octet-stream")).build();
      assertEquals(503, client.send(r).status());
      assertEquals(1, mock.requests().size());
    }
  }

  @Test
  void aRequestsOwnPolicyWins() {
    MockTransport mock = statuses(null, 503, 200);
    try (Client client = Client.builder().transport(mock).retry(QUICK).build()) {
      Request once = Request.builder("GET", "http://127.0.0.1/x").retry(RetryPolicy.none()).build();
      assertEquals(503, client.send(once).status());
    }
    MockTransport mock2 = statuses(null, 503, 200);
    try (Client client = Client.builder().transport(mock2).build()) {
      Request retried = Request.builder("GET", "http://127.0.0.1/x").retry(QUICK).build();
      assertEquals(200, client.send(retried).status());
    }
  }

  @Test
  void aConnectFailureIsRetriedAndTheFinalFailureCarriesTheEarlierOnes() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    List<RetryPolicy.Retry> seen = new CopyOnWriteArrayList<>();
    try (Client client = Client.builder().retry(QUICK.toBuilder().onRetry(seen::add).build()).build()) {
      ConnectException e = assertThrows(ConnectException.class,
          () -> client.post("http://127.0.0.1:" + closedPort + "/x", RequestBody.of("a")));
      assertEquals(2, e.getSuppressed().length, "the two earlier attempts");
      assertInstanceOf(ConnectException.class, e.getSuppressed()[0]);
      assertEquals(2, seen.size());
      assertTrue(seen.get(0).failure() instanceof ConnectException);
    }
  }

  @Test
  void aRealServers503IsRetriedOnTheSameConnection() throws InterruptedException {
    AtomicInteger retries = new AtomicInteger();
    try (Client client = Client.builder().retry(QUICK.toBuilder().onRetry(r -> retries.incrementAndGet()).build()).build()) {
      assertEquals(503, client.get(server.url("/status/503")).status());
      assertEquals(2, retries.get());
      EventStreamTest.eventually(() -> client.stats().inUse() == 0, client.stats());
      assertEquals(1, client.stats().connectionsOpened(), "each 503 was read and its connection reused");
    }
  }

  @Test
  void theBudgetStopsARetryStorm() {
    MockTransport mock = statuses(null, 503);
    RetryPolicy policy = QUICK.toBuilder().maxAttempts(5).build();
    // 10 retries per 10 s
    try (Client client = Client.builder().transport(mock).retry(policy).retryBudget(0.0, 1).build()) {
      for (int i = 0; i < 10; i++) {
        client.get("http://127.0.0.1/x");
      }
      assertEquals(10 + 10, mock.requests().size(), "10 calls, then only the 10 retries the budget had");
    }
  }

  @Test
  void aRequestsOwnPolicyDrawsOnTheClientsBudget() {
    MockTransport mock = statuses(null, 503);
    Request request = Request.builder("GET", "http://127.0.0.1/x").retry(QUICK.toBuilder().maxAttempts(5).build())
        .build();
    try (Client client = Client.builder().transport(mock).retryBudget(0.0, 1).build()) {
      for (int i = 0; i < 10; i++) {
        client.send(request);
      }
      assertEquals(10 + 10, mock.requests().size(), "the client retries nothing by itself; the requests' retries "
          + "stopped where the client's budget did");
    }
  }

  @Test
  void aBudgetBelowZeroIsRefusedWithBothValues() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Client.builder().retryBudget(-0.5, 1));
    assertTrue(e.getMessage().contains("-0.5"), e.getMessage());
  }

  @Test
  void thePolicyIsAValue() {
    RetryPolicy p = RetryPolicy.builder().retryStatuses(500, 502).fixedDelay(Duration.ofSeconds(2)).build();
    assertArrayEquals(new int[] {500, 502}, p.retryStatuses());
    assertTrue(p.isFixedDelay());
    assertEquals(Duration.ofSeconds(2), p.baseDelay());
    assertEquals(Duration.ofSeconds(10), p.maxDelay(), "the cap on Retry-After stays the default");
    assertEquals(1, RetryPolicy.none().maxAttempts());
    assertEquals(3, RetryPolicy.defaults().maxAttempts());
    assertThrows(IllegalArgumentException.class, () -> RetryPolicy.builder().maxAttempts(0));
    assertThrows(IllegalArgumentException.class, () -> RetryPolicy.builder().retryStatuses(42));
  }
}
