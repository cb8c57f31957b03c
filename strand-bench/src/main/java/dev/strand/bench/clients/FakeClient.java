package dev.strand.bench.clients;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A client with a known latency and no I/O: every call completes after {@code latencyMicros} with
 * {@code bodyLength}. With N in flight it must measure N / latency req/s; the harness tests rely on that.
 */
public final class FakeClient implements BenchClient {

  static final String SETUP = "no I/O: completes after a fixed latency (-Dstrand.bench.fake.latencyMicros, "
      + "-Dstrand.bench.fake.bodyLength)";

  private final long latencyMicros;
  private final int bodyLength;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "fake-client-timer");
    t.setDaemon(true);
    return t;
  });

  public FakeClient(long latencyMicros, int bodyLength) {
    this.latencyMicros = latencyMicros;
    this.bodyLength = bodyLength;
  }

  static BenchClient fromSystemProperties(ClientSpec spec) {
    return new FakeClient(Long.getLong("strand.bench.fake.latencyMicros", 10_000),
        Integer.getInteger("strand.bench.fake.bodyLength", spec.expectedLength()));
  }

  @Override
  public boolean isBlocking() {
    return false;
  }

  @Override
  public CompletionStage<Integer> getAsync() {
    CompletableFuture<Integer> f = new CompletableFuture<>();
    timer.schedule(() -> f.complete(bodyLength), latencyMicros, TimeUnit.MICROSECONDS);
    return f;
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
