package dev.strand.hostile;

import static org.junit.jupiter.api.Assertions.fail;

import dev.strand.Client;
import dev.strand.ClientStats;
import java.util.function.Predicate;

/**
 * The pool after a case: nothing in use or waiting, and, where the peer misbehaved, nothing open at all.
 * Counters settle on the event loop a moment after a call returns, so each check polls for up to 2 s.
 */
final class PoolCheck {
  private PoolCheck() {}

  /** No connection in use and no request waiting; an idle connection may stay (the exchange ended cleanly). */
  static void settled(Client client) {
    await(client, o -> o.inUse() == 0 && o.pending() == 0, "inUse and pending 0");
  }

  /** Every counter of every origin at zero: the connection the peer spoiled was closed, not kept. */
  static void empty(Client client) {
    await(client, o -> o.open() == 0 && o.idle() == 0 && o.inUse() == 0 && o.pending() == 0, "all counters 0");
  }

  private static void await(Client client, Predicate<ClientStats.OriginStats> ok, String what) {
    long deadline = System.nanoTime() + 2_000_000_000L;
    while (true) {
      ClientStats stats = client.stats();
      if (stats.origins().values().stream().allMatch(ok)) {
        return;
      }
      if (System.nanoTime() > deadline) {
        fail("pool not back to " + what + ": " + stats);
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail("interrupted");
      }
    }
  }
}
