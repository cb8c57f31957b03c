package dev.strand.bench;

import dev.strand.Limits;
import dev.strand.NettyTransport;
import dev.strand.Request;
import dev.strand.Timeout;
import dev.strand.spi.StreamingResponses;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Loopback throughput and client CPU per request for {@code GET /small} through {@link NettyTransport}
 * (send + readAll, no client layer), at several concurrencies: the transport alone, beside the
 * bench's whole-client cells. Run it by hand ({@code java -cp strand-bench/target/... dev.strand.bench.TransportProbe}).
 *
 * <p>The server runs in a separate JVM ({@code dev.strand.testkit.TestServer}), so this process's CPU
 * time is the client's alone. Arguments: {@code [warmupSeconds] [batchSeconds] [batches] [concurrency...]}
 * (default 10 3 3 1 10 100 500).
 */
public final class TransportProbe {
  private TransportProbe() {}

  public static void main(String[] args) throws Exception {
    int warmup = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    int batchSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    int batches = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    int[] levels = {1, 10, 100, 500};
    if (args.length > 3) {
      levels = new int[args.length - 3];
      for (int i = 3; i < args.length; i++) {
        levels[i - 3] = Integer.parseInt(args[i]);
      }
    }
    Process server = startServer();
    try {
      String base = readBaseUri(server);
      System.out.println("server " + base + " (separate process), client cpus=" + Runtime.getRuntime().availableProcessors());
      Request request = Request.builder("GET", base + "/small").timeout(Timeout.of(Duration.ofSeconds(10))).build();
      // Warm-up at the top concurrency, so every path (hand-off, reuse) is compiled.
      run(request, levels[levels.length - 1], warmup, 1, false);
      for (int c : levels) {
        run(request, c, batchSeconds, batches, true);
      }
    } finally {
      server.destroy();
      server.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static void run(Request request, int concurrency, int seconds, int batches, boolean print) throws Exception {
    try (NettyTransport t = NettyTransport.builder().limits(Limits.ofConnections(concurrency)).build()) {
      Semaphore inFlight = new Semaphore(concurrency);
      AtomicLong done = new AtomicLong();
      AtomicLong failed = new AtomicLong();
      // One short untimed round so the connections exist before timing.
      drive(t, request, inFlight, done, failed, concurrency, System.nanoTime() + TimeUnit.SECONDS.toNanos(1));
      for (int b = 0; b < batches; b++) {
        long n0 = done.get();
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        drive(t, request, inFlight, done, failed, concurrency, t0 + TimeUnit.SECONDS.toNanos(seconds));
        long elapsed = System.nanoTime() - t0;
        long cpu = processCpuNanos() - cpu0;
        long n = done.get() - n0;
        if (print) {
          System.out.printf("concurrency %4d  batch %d: %9.0f req/s  %6.2f us cpu/req  (%d requests, %d failed, %d conns opened)%n",
              concurrency, b + 1, n / (elapsed / 1e9), cpu / 1000.0 / n, n, failed.get(), t.stats().connectionsOpened());
        }
      }
    }
  }

  /**
   * CPU time of this whole process (client only: the server is another process). From /proc on Linux,
   * in clock ticks (10 ms), which is fine for batches of seconds. Not the management bean: the test
   * sources compile inside module dev.strand, which does not read java.management.
   */
  private static long processCpuNanos() {
    return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
  }

  /** Keeps {@code concurrency} requests in flight until the deadline, then waits for all to finish. */
  private static void drive(NettyTransport t, Request request, Semaphore inFlight, AtomicLong done, AtomicLong failed,
      int concurrency, long deadline) throws InterruptedException {
    while (System.nanoTime() < deadline) {
      if (!inFlight.tryAcquire(100, TimeUnit.MILLISECONDS)) {
        continue;
      }
      t.send(request)
          .thenCompose(r -> StreamingResponses.body(r).readAll(1 << 20))
          .whenComplete((body, e) -> {
            if (e != null) {
              failed.incrementAndGet();
            } else {
              done.incrementAndGet();
            }
            inFlight.release();
          });
    }
    if (!inFlight.tryAcquire(concurrency, 30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("requests did not finish");
    }
    inFlight.release(concurrency);
  }

  private static Process startServer() throws Exception {
    String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        "dev.strand.testkit.TestServer", "--threads", "1");
    pb.redirectErrorStream(true);
    return pb.start();
  }

  private static String readBaseUri(Process server) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
    Pattern p = Pattern.compile("(http://[^ ]+)");
    String line;
    while ((line = in.readLine()) != null) {
      Matcher m = p.matcher(line);
      if (line.contains("listening") && m.find()) {
        Thread drain = new Thread(() -> {
          try {
            while (in.readLine() != null) {
              // keep the pipe from filling
            }
          } catch (Exception ignored) {
            // server gone
          }
        });
        drain.setDaemon(true);
        drain.start();
        return m.group(1);
      }
    }
    throw new IllegalStateException("the test server did not start");
  }
}
