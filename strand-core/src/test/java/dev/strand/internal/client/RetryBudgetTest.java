package dev.strand.internal.client;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The retry budget at exact times: a share of recent calls plus a floor per second, over a sliding window. */
class RetryBudgetTest {
  private static final long SECOND = 1_000_000_000L;
  private final AtomicLong now = new AtomicLong(1_000 * SECOND);

  @Test
  void retriesAreAShareOfRecentCalls() {
    RetryBudget budget = new RetryBudget(0.2, 0, now::get);
    for (int i = 0; i < 100; i++) {
      budget.recordCall();
    }
    for (int i = 0; i < 20; i++) {
      assertTrue(budget.tryRetry(), "retry " + i);
    }
    assertFalse(budget.tryRetry(), "the 21st retry of 100 calls");
  }

  @Test
  void aQuietClientMayStillRetryAtTheFloor() {
    RetryBudget budget = new RetryBudget(0.2, 1, now::get); // 10 over the 10 s window
    for (int i = 0; i < 10; i++) {
      assertTrue(budget.tryRetry());
    }
    assertFalse(budget.tryRetry());
  }

  @Test
  void theWindowSlides() {
    RetryBudget budget = new RetryBudget(0.5, 0, now::get);
    budget.recordCall();
    budget.recordCall();
    assertTrue(budget.tryRetry());
    assertFalse(budget.tryRetry());
    now.addAndGet(5 * SECOND);
    assertFalse(budget.tryRetry(), "the calls and the retry are still in the window");
    now.addAndGet(5 * SECOND);
    budget.recordCall();
    budget.recordCall();
    assertTrue(budget.tryRetry(), "the old retry left the window with its calls");
    assertFalse(budget.tryRetry());
  }
}
