package dev.strand.flink;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * A Flink metric reporter for tests that keeps what it is told about Strand's metrics ({@code strand.*}): each
 * metric with its job, operator and subtask, and its last value, read when the metric is removed (a finished task
 * removes its metrics, so a test reads them after the job). The MiniCluster runs in the test's JVM, so the
 * reporter Flink creates from {@link #configure} writes where the test reads.
 */
public final class MetricsCapture {

    /** One of Strand's metrics on one subtask, with its last value. */
    public record Reported(String job, String operator, String subtask, String name, Metric metric,
            Number removedValue) {

        /** A counter's count, a gauge's value, a histogram's count: now, or when the metric was removed. */
        public long value() {
            if (removedValue != null) {
                return removedValue.longValue();
            }
            Number now = read(metric);
            return now == null ? -1 : now.longValue();
        }
    }

    private static final Map<String, Reported> METRICS = new ConcurrentHashMap<>();

    private MetricsCapture() {
    }

    /** Adds this reporter to a MiniCluster's configuration. */
    public static Configuration configure(Configuration conf) {
        conf.setString("metrics.reporter.capture.factory.class", Factory.class.getName());
        return conf;
    }

    /** Every Strand metric reported for {@code job} on an operator whose name contains {@code operator}. */
    public static List<Reported> of(String job, String operator) {
        List<Reported> out = new ArrayList<>();
        METRICS.values().forEach(r -> {
            if (r.job.equals(job) && r.operator.contains(operator)) {
                out.add(r);
            }
        });
        return out;
    }

    /** The sum over subtasks of metric {@code name} (e.g. {@code "strand.requests"}); -1 if none was reported. */
    public static long sum(String job, String operator, String name) {
        List<Reported> found = of(job, operator).stream().filter(r -> r.name.equals(name)).toList();
        return found.isEmpty() ? -1 : found.stream().mapToLong(Reported::value).sum();
    }

    private static Number read(Metric m) {
        if (m instanceof Counter c) {
            return c.getCount();
        }
        if (m instanceof Histogram h) {
            return h.getCount();
        }
        if (m instanceof Gauge<?> g && g.getValue() instanceof Number n) {
            return n;
        }
        return null;
    }

    /** Named in the configuration: Flink instantiates it by class name. */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new Reporter();
        }
    }

    private static final class Reporter implements MetricReporter {
        @Override
        public void open(MetricConfig config) {
        }

        @Override
        public void close() {
        }

        @Override
        public void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
            String[] scope = group.getScopeComponents();
            int strand = Arrays.asList(scope).lastIndexOf("strand");
            if (strand < 0) {
                return;
            }
            String relative = String.join(".", Arrays.copyOfRange(scope, strand, scope.length)) + "." + name;
            Map<String, String> v = group.getAllVariables();
            METRICS.put(group.getMetricIdentifier(name), new Reported(v.getOrDefault("<job_name>", "?"),
                    v.getOrDefault("<operator_name>", "?"), v.getOrDefault("<subtask_index>", "?"), relative, metric,
                    null));
        }

        @Override
        public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {
            METRICS.computeIfPresent(group.getMetricIdentifier(name), (k, r) -> new Reported(r.job, r.operator,
                    r.subtask, r.name, r.metric, read(metric)));
        }
    }
}
