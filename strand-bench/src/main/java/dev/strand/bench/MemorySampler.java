package dev.strand.bench;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.netty.util.internal.PlatformDependent;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Samples this JVM's memory once a second. A soak shows its memory is flat by comparing, per metric, the mean
 * of the first minute with the mean of the last.
 */
final class MemorySampler implements AutoCloseable {

  /** What is sampled, in report order; each in bytes, -1 where the JVM or Netty cannot tell. */
  static final Map<String, LongSupplier> METRICS = metrics();

  /** One sample: seconds since the sampler started and one value per {@link #METRICS} entry. */
  record Sample(long atMillis, long[] values) {}

  /** A metric's mean over the first and the last window, MiB; negative when not available. */
  record FirstLast(double firstMiB, double lastMiB) {}

  /** Means over the first and last {@code windowSeconds} of a run, per metric. */
  record Window(int windowSeconds, int samples, Map<String, FirstLast> metrics) {}

  private final List<Sample> samples = new ArrayList<>();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "memory-sampler");
    t.setDaemon(true);
    return t;
  });
  private final long start = System.currentTimeMillis();

  MemorySampler() {
    timer.scheduleAtFixedRate(this::sample, 0, 1, TimeUnit.SECONDS);
  }

  private static Map<String, LongSupplier> metrics() {
    Map<String, LongSupplier> m = new LinkedHashMap<>();
    m.put("heap used", () -> ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    m.put("heap old gen", MemorySampler::oldGen);
    m.put("Netty direct (counter)", PlatformDependent::usedDirectMemory);
    m.put("Netty allocator direct", MemorySampler::allocatorDirect);
    m.put("JDK direct buffers", MemorySampler::jdkDirect);
    return m;
  }

  /** Takes one sample now, besides the one every second. */
  void sample() {
    long[] values = METRICS.values().stream().mapToLong(LongSupplier::getAsLong).toArray();
    synchronized (samples) {
      samples.add(new Sample(System.currentTimeMillis() - start, values));
    }
  }

  /** Samples taken from {@code fromMillis} (since this sampler started) until now. */
  List<Sample> since(long fromMillis) {
    synchronized (samples) {
      return samples.stream().filter(s -> s.atMillis() >= fromMillis).toList();
    }
  }

  long elapsedMillis() {
    return System.currentTimeMillis() - start;
  }

  /** First and last minute of {@code run} (or first and last half, when it is shorter than two minutes). */
  static Window window(List<Sample> run) {
    int w = Math.min(60, run.size() / 2);
    Map<String, FirstLast> out = new LinkedHashMap<>();
    int i = 0;
    for (String name : METRICS.keySet()) {
      out.put(name, w == 0 ? new FirstLast(-1, -1)
          : new FirstLast(mib(run.subList(0, w), i), mib(run.subList(run.size() - w, run.size()), i)));
      i++;
    }
    return new Window(w, run.size(), out);
  }

  private static double mib(List<Sample> s, int metric) {
    return s.stream().mapToLong(x -> x.values()[metric]).average().orElse(-1) / (1024.0 * 1024.0);
  }

  /**
   * Heap in the pools that are neither eden nor survivor: what outlives young collections, so what a leak
   * makes grow (G1's "heap after GC" counters only move at old or mixed collections).
   */
  private static long oldGen() {
    long sum = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      String name = p.getName();
      if (p.getType() == MemoryType.HEAP && !name.contains("Eden") && !name.contains("Survivor")) {
        sum += p.getUsage().getUsed();
      }
    }
    return sum;
  }

  /** Direct memory the default allocator (the one Strand's channels use) holds in use. */
  private static long allocatorDirect() {
    return ByteBufAllocator.DEFAULT instanceof ByteBufAllocatorMetricProvider m
        ? m.metric().usedDirectMemory() : -1;
  }

  /** Direct buffers the JDK tracks (those with a cleaner). */
  private static long jdkDirect() {
    for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if (b.getName().equals("direct")) {
        return b.getMemoryUsed();
      }
    }
    return -1;
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
