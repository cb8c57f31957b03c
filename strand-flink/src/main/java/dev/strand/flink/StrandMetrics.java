package dev.strand.flink;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

/**
 * Strand's metrics on an operator's metric group, under the subgroup {@code strand}: {@code requests},
 * {@code errors.<kind>} per {@link ErrorKind}, {@code inFlight} (gauge), {@code latencyMs} (histogram over the
 * last 1024 exchanges), {@code timeoutsDropped}, {@code timeoutsFallback} and {@code retriesScheduled}.
 * Safe to update from any thread.
 */
final class StrandMetrics {
    static final String GROUP = "strand";

    private final Counter requests;
    private final Map<ErrorKind, Counter> errors = new EnumMap<>(ErrorKind.class);
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Histogram latencyMs;
    private final Counter timeoutsDropped;
    private final Counter timeoutsFallback;
    private final Counter retriesScheduled;

    StrandMetrics(MetricGroup operatorGroup) {
        MetricGroup g = operatorGroup.addGroup(GROUP);
        requests = g.counter("requests");
        MetricGroup e = g.addGroup("errors");
        for (ErrorKind k : ErrorKind.values()) {
            errors.put(k, e.counter(k.metricName()));
        }
        g.gauge("inFlight", inFlight::get);
        latencyMs = g.histogram("latencyMs", new DescriptiveStatisticsHistogram(1024));
        timeoutsDropped = g.counter("timeoutsDropped");
        timeoutsFallback = g.counter("timeoutsFallback");
        retriesScheduled = g.counter("retriesScheduled");
    }

    /** A request is about to be sent; returns its start time for {@link #finished}. */
    long started() {
        requests.inc();
        inFlight.incrementAndGet();
        return System.nanoTime();
    }

    /** The request sent at {@code startNanos} has its response, or failed. */
    void finished(long startNanos) {
        inFlight.decrementAndGet();
        latencyMs.update(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
    }

    void error(ErrorKind kind) {
        errors.get(kind).inc();
    }

    void timeoutDropped() {
        timeoutsDropped.inc();
    }

    void timeoutFallback() {
        timeoutsFallback.inc();
    }

    void retryScheduled(int n) {
        retriesScheduled.inc(n);
    }
}
