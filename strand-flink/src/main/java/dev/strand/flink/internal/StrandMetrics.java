package dev.strand.flink.internal;

import dev.strand.flink.ErrorKind;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;

/**
 * Strand's metrics on an operator's metric group, under the subgroup {@code strand}: {@code requests},
 * {@code errors.<kind>} per {@link ErrorKind}, {@code inFlight} (gauge), {@code latencyMs} (histogram over the
 * last 1024 exchanges), {@code timeoutsDropped}, {@code timeoutsFallback} and {@code retriesScheduled}. The same
 * set on every operator strand-flink makes (the async function, the sink, the SQL lookup), so one dashboard reads
 * them all. Safe to update from any thread.
 *
 * <p>Not API: public only so that {@code dev.strand.flink.table} can use it.
 */
public final class StrandMetrics {
    /** The subgroup's name. */
    public static final String GROUP = "strand";

    private final Counter requests;
    private final Map<ErrorKind, Counter> errors = new EnumMap<>(ErrorKind.class);
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Histogram latencyMs;
    private final Counter timeoutsDropped;
    private final Counter timeoutsFallback;
    private final Counter retriesScheduled;

    /** Registers the set on {@code operatorGroup}. */
    public StrandMetrics(MetricGroup operatorGroup) {
        MetricGroup g = operatorGroup.addGroup(GROUP);
        // Errors, retries and (in the lookup) requests are counted from I/O and timer threads: thread-safe counters.
        requests = g.counter("requests", new ThreadSafeSimpleCounter());
        MetricGroup e = g.addGroup("errors");
        for (ErrorKind k : ErrorKind.values()) {
            errors.put(k, e.counter(k.metricName(), new ThreadSafeSimpleCounter()));
        }
        g.gauge("inFlight", inFlight::get);
        latencyMs = g.histogram("latencyMs", new LatencyHistogram(1024));
        timeoutsDropped = g.counter("timeoutsDropped", new ThreadSafeSimpleCounter());
        timeoutsFallback = g.counter("timeoutsFallback", new ThreadSafeSimpleCounter());
        retriesScheduled = g.counter("retriesScheduled", new ThreadSafeSimpleCounter());
    }

    /** A request is about to be sent; returns its start time for {@link #finished}. */
    public long started() {
        requests.inc();
        inFlight.incrementAndGet();
        return System.nanoTime();
    }

    /** The request sent at {@code startNanos} has its response, or failed. */
    public void finished(long startNanos) {
        inFlight.decrementAndGet();
        latencyMs.update(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
    }

    /** A request (or its mapping) failed this way. */
    public void error(ErrorKind kind) {
        errors.get(kind).inc();
    }

    /** A record timed out and was dropped. */
    public void timeoutDropped() {
        timeoutsDropped.inc();
    }

    /** A record timed out and took its fallback. */
    public void timeoutFallback() {
        timeoutsFallback.inc();
    }

    /** {@code n} retries were scheduled. */
    public void retryScheduled(int n) {
        retriesScheduled.inc(n);
    }
}
