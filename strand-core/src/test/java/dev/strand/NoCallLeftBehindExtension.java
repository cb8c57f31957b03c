package dev.strand;

import dev.strand.internal.netty.NettyEngine;
import dev.strand.internal.netty.OpenEngines;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test that leaves a connection in use or a request waiting for one on a client it opened (or its
 * class opened before its tests) and did not close: a call left running, a body left half-read, or a
 * release Strand forgot. Registered for every core test by autodetection; engines are tracked because the
 * build runs the tests with {@code -Dstrand.trackEngines=true}. Releases may run on an I/O thread after the
 * test returns, so each client gets a bounded moment to settle first.
 */
public final class NoCallLeftBehindExtension implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback {
  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(NoCallLeftBehindExtension.class);
  private static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(5);
  private static final java.util.concurrent.atomic.AtomicLong STARTED = new java.util.concurrent.atomic.AtomicLong();

  /** Tests this extension has watched in this JVM: proof that autodetection registered it. */
  static long watchedTests() {
    return STARTED.get();
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    context.getStore(NS).put("beforeClass", OpenEngines.now());
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    STARTED.incrementAndGet();
    Set<NettyEngine> now = OpenEngines.now();
    ExtensionContext.Store classStore = context.getParent().orElseThrow().getStore(NS);
    // The engines the class opened for its tests (in static fields or @BeforeAll), captured once.
    @SuppressWarnings("unchecked")
    Set<NettyEngine> before = (Set<NettyEngine>) classStore.get("beforeClass", Set.class);
    if (before != null && classStore.get("classEngines") == null) {
      Set<NettyEngine> ofClass = new HashSet<>(now);
      ofClass.removeAll(before);
      classStore.put("classEngines", Set.copyOf(ofClass));
    }
    context.getStore(NS).put("beforeTest", now);
  }

  @Override
  @SuppressWarnings("unchecked")
  public void afterEach(ExtensionContext context) throws InterruptedException {
    if (!OpenEngines.tracked()) {
      return;
    }
    Set<NettyEngine> before = context.getStore(NS).get("beforeTest", Set.class);
    Set<NettyEngine> ofClass = context.getParent().orElseThrow().getStore(NS).get("classEngines", Set.class);
    Set<NettyEngine> mine = new HashSet<>(OpenEngines.now());
    if (before != null) {
      Set<NettyEngine> created = new HashSet<>(mine);
      created.removeAll(before);
      mine.retainAll(ofClass == null ? Set.of() : ofClass);
      mine.addAll(created);
    }
    long deadline = System.nanoTime() + SETTLE_NANOS;
    List<String> busy = new ArrayList<>();
    for (NettyEngine engine : mine) {
      ClientStats s = engine.stats();
      while ((s.inUse() > 0 || s.pending() > 0) && !engine.isClosed() && System.nanoTime() < deadline) {
        Thread.sleep(5);
        s = engine.stats();
      }
      if ((s.inUse() > 0 || s.pending() > 0) && !engine.isClosed()) {
        busy.add(s.inUse() + " connection(s) in use and " + s.pending() + " request(s) waiting: " + s.origins());
      }
    }
    if (!busy.isEmpty() && context.getExecutionException().isEmpty()) {
      throw new AssertionError(context.getDisplayName() + " left calls behind on a client it did not close: " + busy);
    }
  }
}
