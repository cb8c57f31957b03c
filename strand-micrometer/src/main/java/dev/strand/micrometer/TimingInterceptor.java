package dev.strand.micrometer;

import dev.strand.Interceptor;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** {@link StrandMetrics#interceptor()}: times the call, and shows the pool meters the origins it reaches. */
final class TimingInterceptor implements Interceptor {
  private final StrandMetrics metrics;

  TimingInterceptor(StrandMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public CompletableFuture<StreamingResponse> intercept(Chain chain) {
    Request request = chain.request();
    long start = metrics.registry().config().clock().monotonicTime();
    // The caller's future depends on the one returned: the time is recorded before the caller sees the response.
    return chain.proceed(request).whenComplete((response, error) -> {
      long elapsed = metrics.registry().config().clock().monotonicTime() - start;
      try {
        if (metrics.timesRequests()) {
          Timer.builder(StrandMetrics.REQUESTS)
              .description("HTTP calls made by a Strand client, to their final response")
              .tags(metrics.requestTags(request, response, error))
              .register(metrics.registry())
              .record(elapsed, TimeUnit.NANOSECONDS);
        }
        PoolMeters pool = metrics.pool();
        if (pool != null) {
          pool.reached(request.url());
        }
      } catch (RuntimeException e) {
        metrics.failures().record("the meter registry", e);
      }
    });
  }

  @Override
  public String toString() {
    return "StrandMetrics.interceptor()";
  }
}
