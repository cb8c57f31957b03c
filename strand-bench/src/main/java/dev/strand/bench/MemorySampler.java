package dev.strand.bench;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.netty.util.internal.PlatformDependent;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples this JVM's memory once a second: heap used, heap left after the last collection, and direct
 * memory as Netty counts it. A soak shows its heap and direct memory are flat by comparing the mean of the
 * first minute with the mean of the last.
 */
final class MemorySampler implements AutoCloseable {

  /** One sample, in bytes; -1 where the JVM or Netty cannot tell. */
  record Sample(long atMillis, long heapUsed, long heapAfterGc, long nettyDirect, long jdkDirect) {}

  /** Means over the first and last {@code windowSeconds} of a run. */
  record Window(int windowSeconds, int samples, double heapUsedFirstMiB, double heapUsedLastMiB,
      double heapAfterGcFirstMiB, double heapAfterGcLastMiB, double nettyDirectFirstMiB,
      double nettyDirectLastMiB, double jdkDirectFirstMiB, double jdkDirectLastMiB) {}

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

  private void sample() {
    Sample s = new Sample(System.currentTimeMillis() - start,
        ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), heapAfterGc(), nettyDirect(),
        jdkDirect());
    synchronized (samples) {
      samples.add(s);
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
    if (w == 0) {
      return new Window(0, run.size(), -1, -1, -1, -1, -1, -1, -1, -1);
    }
    List<Sample> first = run.subList(0, w);
    List<Sample> last = run.subList(run.size() - w, run.size());
    return new Window(w, run.size(), mib(first, Sample::heapUsed), mib(last, Sample::heapUsed),
        mib(first, Sample::heapAfterGc), mib(last, Sample::heapAfterGc),
        mib(first, Sample::nettyDirect), mib(last, Sample::nettyDirect),
        mib(first, Sample::jdkDirect), mib(last, Sample::jdkDirect));
  }

  private static double mib(List<Sample> s, java.util.function.ToLongFunction<Sample> f) {
    return s.stream().mapToLong(f).average().orElse(-1) / (1024.0 * 1024.0);
  }

  /** Heap in use right after the last collection, summed over the heap pools (what survives: the leak signal). */
  private static long heapAfterGc() {
    long sum = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP && p.getCollectionUsage() != null) {
        sum += p.getCollectionUsage().getUsed();
      }
    }
    return sum;
  }

  /**
   * Netty's own direct-memory counter when it keeps one (buffers without a cleaner), else what the
   * default allocator reports as used.
   */
  static long nettyDirect() {
    long counted = PlatformDependent.usedDirectMemory();
    if (counted >= 0) {
      return counted;
    }
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
