package dev.strand.bench;

import dev.strand.bench.clients.BenchClient;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Closed-loop load against one {@link BenchClient}: exactly {@code concurrency} requests in flight. Async
 * clients: one dispatcher thread takes a semaphore permit per request and the completion returns it (or,
 * with the {@code lanes} driver, each completion issues the next request). Blocking clients: N virtual
 * threads, each issuing its next request when the previous one returns.
 *
 * <p>Load runs continuously from {@link #start()} to {@link #stop}; {@link #measure} cuts it into timed
 * batches without pausing it, so there is no ramp between batches. Bounded by time (the caller's phases)
 * and by {@code maxRequests} in total, whichever comes first.
 */
public final class LoadLoop {

  /** One timed batch. */
  public record Batch(long ok, long errors, double seconds) {
    public double rps() {
      return ok / seconds;
    }
  }

  /** The timed part of one level: the batches, process CPU over them, and latency of the successes. */
  public record Measurement(List<Batch> batches, long cpuNanos, Histogram latencyMicros) {
    public long ok() {
      return batches.stream().mapToLong(Batch::ok).sum();
    }

    public long errors() {
      return batches.stream().mapToLong(Batch::errors).sum();
    }
  }

  private static final int MAX_SYNC_DEPTH = 8;
  /**
   * How async clients are driven: {@code semaphore} (default: one dispatcher thread, a permit per request in
   * flight, as the seeds' asyncio.Semaphore) or {@code lanes} (each completion issues the next request from
   * the thread it completed on; -Dstrand.bench.driver=lanes, for diagnosis).
   */
  static final String DRIVER = System.getProperty("strand.bench.driver", "semaphore");
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private final BenchClient client;
  private final int concurrency;
  private final int expectedLength;
  private final long maxRequests;

  private final LongAdder ok = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final LongAdder allErrors = new LongAdder();
  private final AtomicLong issued = new AtomicLong();
  private final LongAdder callerNanos = new LongAdder();
  private final LongAdder calls = new LongAdder();
  private final AtomicInteger activeLanes = new AtomicInteger();
  private final AtomicReference<String> firstError = new AtomicReference<>();
  private final Recorder latency = new Recorder(3);
  private final ThreadLocal<int[]> depth = ThreadLocal.withInitial(() -> new int[1]);
  private final List<Thread> workers = new ArrayList<>();
  private ExecutorService trampoline;
  private volatile boolean stopped;

  private final String driver;

  public LoadLoop(BenchClient client, int concurrency, int expectedLength, long maxRequests) {
    this(client, concurrency, expectedLength, maxRequests, DRIVER);
  }

  /** As above, with the async driver named: {@code semaphore} (the default) or {@code lanes}. */
  public LoadLoop(BenchClient client, int concurrency, int expectedLength, long maxRequests, String driver) {
    if (!driver.equals("semaphore") && !driver.equals("lanes")) {
      throw new IllegalArgumentException("driver must be semaphore or lanes: " + driver);
    }
    this.driver = driver;
    this.client = client;
    this.concurrency = concurrency;
    this.expectedLength = expectedLength;
    this.maxRequests = maxRequests;
  }

  /** Process CPU time (user + sys) of this JVM, in nanoseconds. */
  public static long processCpuNanos() {
    return OS.getProcessCpuTime();
  }

  public void start() {
    activeLanes.set(concurrency);
    if (!client.isBlocking() && driver.equals("semaphore")) {
      workers.add(Thread.ofPlatform().daemon().name("bench-dispatcher").start(this::dispatch));
    } else if (client.isBlocking()) {
      for (int i = 0; i < concurrency; i++) {
        workers.add(Thread.ofVirtual().name("bench-", i).start(this::blockingLane));
      }
    } else {
      // Only used when a client completes synchronously over and over, to keep the stack flat.
      trampoline = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "bench-trampoline");
        t.setDaemon(true);
        return t;
      });
      for (int i = 0; i < concurrency; i++) {
        issue();
      }
    }
  }

  /** Lets the load run for {@code d} without measuring (warm-up), unless it ends by itself first. */
  public void run(Duration d) throws InterruptedException {
    long end = System.nanoTime() + d.toNanos();
    while (!finished() && System.nanoTime() < end) {
      Thread.sleep(Math.min(50, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
    }
  }

  /** Cuts the running load into {@code batches} windows of {@code each}; reports progress per batch. */
  public Measurement measure(int batches, Duration each, Consumer<Integer> onBatch) throws InterruptedException {
    List<Batch> out = new ArrayList<>();
    latency.reset();
    long cpu0 = processCpuNanos();
    for (int b = 1; b <= batches && !finished(); b++) {
      onBatch.accept(b);
      long ok0 = ok.sum();
      long err0 = errors.sum();
      long t0 = System.nanoTime();
      run(each);
      long t1 = System.nanoTime();
      out.add(new Batch(ok.sum() - ok0, errors.sum() - err0, (t1 - t0) / 1e9));
    }
    long cpu1 = processCpuNanos();
    return new Measurement(out, cpu1 - cpu0, latency.getIntervalHistogram());
  }

  /** True once every lane has stopped (request budget spent). */
  public boolean finished() {
    return activeLanes.get() == 0;
  }

  /** Stops issuing and waits up to {@code drain} for in-flight requests; returns true if all came back. */
  public boolean stop(Duration drain) throws InterruptedException {
    stopped = true;
    long end = System.nanoTime() + drain.toNanos();
    while (activeLanes.get() > 0 && System.nanoTime() < end) {
      Thread.sleep(5);
    }
    for (Thread t : workers) {
      t.join(Math.max(1, (end - System.nanoTime()) / 1_000_000));
    }
    if (trampoline != null) {
      trampoline.shutdownNow();
    }
    return activeLanes.get() == 0;
  }

  /**
   * Mean wall time the semaphore driver spent inside {@code getAsync()} per call, in µs, or -1: how much
   * of a request an async client does on the calling thread before it returns its future (a diagnostic).
   */
  public double callerMicrosPerCall() {
    long n = calls.sum();
    return n == 0 ? -1 : callerNanos.sum() / 1_000.0 / n;
  }

  public long totalErrors() {
    return allErrors.sum();
  }

  public String firstError() {
    return firstError.get();
  }

  private boolean mayIssue() {
    return !stopped && issued.incrementAndGet() <= maxRequests;
  }

  private void issue() {
    if (!mayIssue()) {
      activeLanes.decrementAndGet();
      return;
    }
    long t0 = System.nanoTime();
    CompletionStage<Integer> call;
    try {
      call = client.getAsync();
    } catch (Throwable t) {
      record(t0, null, t);
      next();
      return;
    }
    call.whenComplete((length, failure) -> {
      record(t0, length, failure);
      next();
    });
  }

  private void next() {
    int[] d = depth.get();
    if (d[0] >= MAX_SYNC_DEPTH) {
      trampoline.execute(this::issue);
      return;
    }
    d[0]++;
    try {
      issue();
    } finally {
      d[0]--;
    }
  }

  /**
   * The semaphore driver: one platform thread issues every request, a permit per request in flight, so no
   * request is ever issued from a client's own (callback) thread.
   */
  private void dispatch() {
    java.util.concurrent.Semaphore permits = new java.util.concurrent.Semaphore(concurrency);
    try {
      while (true) {
        permits.acquire();
        if (!mayIssue()) {
          permits.release();
          break;
        }
        long t0 = System.nanoTime();
        try {
          client.getAsync().whenComplete((length, failure) -> {
            record(t0, length, failure);
            permits.release();
          });
        } catch (Throwable t) {
          record(t0, null, t);
          permits.release();
        }
        callerNanos.add(System.nanoTime() - t0);
        calls.increment();
      }
      permits.acquire(concurrency);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      activeLanes.set(0);
    }
  }

  private void blockingLane() {
    try {
      while (mayIssue()) {
        long t0 = System.nanoTime();
        try {
          record(t0, client.getBlocking(), null);
        } catch (Throwable t) {
          record(t0, null, t);
        }
      }
    } finally {
      activeLanes.decrementAndGet();
    }
  }

  private void record(long t0, Integer length, Throwable failure) {
    if (failure == null && length != null && length == expectedLength) {
      latency.recordValue(Math.max(1, (System.nanoTime() - t0) / 1_000));
      ok.increment();
      return;
    }
    errors.increment();
    allErrors.increment();
    if (firstError.get() == null) {
      String what = failure != null ? describe(failure)
          : "body length " + length + " != expected " + expectedLength;
      firstError.compareAndSet(null, what);
    }
  }

  static String describe(Throwable t) {
    Throwable root = t;
    while ((root instanceof java.util.concurrent.CompletionException
        || root instanceof java.util.concurrent.ExecutionException) && root.getCause() != null) {
      root = root.getCause();
    }
    String msg = root.getMessage();
    return root.getClass().getName() + (msg == null ? "" : ": " + msg.lines().findFirst().orElse(""));
  }
}
