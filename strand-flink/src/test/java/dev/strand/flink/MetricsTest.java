package dev.strand.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Request;
import dev.strand.testkit.NettyLeakDetectorExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@code strand.*} metrics of {@link StrandAsyncFunction} and {@link StrandHttpSink}, read back through a Flink
 * metric reporter ({@link MetricsCapture}) after jobs whose every request is known: each key answers 503 with
 * {@code Retry-After: 1} once, then 200.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ExtendWith(NettyLeakDetectorExtension.class)
class MetricsTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setConfiguration(MetricsCapture.configure(new Configuration()))
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(FlinkTestCluster.PARALLELISM)
            .build());

    private static final int N = 20;

    /** Every metric of the set, summed over the operator's subtasks. */
    private static Map<String, Long> values(String job, String operator) {
        Map<String, Long> out = new TreeMap<>();
        for (MetricsCapture.Reported r : MetricsCapture.of(job, operator)) {
            out.merge(r.name(), r.value(), Long::sum);
        }
        return out;
    }

    private static Map<String, Long> expected(long requests, long status, long retries) {
        Map<String, Long> m = new TreeMap<>();
        m.put("strand.requests", requests);
        m.put("strand.latencyMs", requests); // the histogram's count: one sample per exchange
        m.put("strand.inFlight", 0L);
        m.put("strand.retriesScheduled", retries);
        m.put("strand.timeoutsDropped", 0L);
        m.put("strand.timeoutsFallback", 0L);
        for (ErrorKind k : ErrorKind.values()) {
            m.put("strand.errors." + k.metricName(), k == ErrorKind.STATUS ? status : 0L);
        }
        return m;
    }

    @Test
    void theAsyncFunctionCountsEachAttemptItsErrorsAndItsRetryAfterWaits() throws Exception {
        try (ScriptedServer server = ScriptedServer.start(1)) {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(FlinkTestCluster.PARALLELISM);
            List<String> keys = IntStream.range(0, N).mapToObj(i -> "m" + i).toList();
            StrandAsyncFunction<String, String> fn = StrandAsyncFunction.builder(HttpSettings.of(server.baseUrl()),
                            (String k) -> Request.get("/flaky/" + k), (String k, dev.strand.Response r) -> r.text())
                    .outputType(Types.STRING)
                    .build();
            HeldSource source = new HeldSource(keys);
            DataStream<String> out = AsyncDataStream.unorderedWaitWithRetry(
                    env.addSource(source, Types.STRING).setParallelism(1).rebalance(), fn, 60, TimeUnit.SECONDS, 10,
                    StrandRetryStrategy.<String>builder().maxRetries(3).initialBackoffMillis(10).build());
            String job = "metrics-function";
            List<String> got;
            try (var it = out.executeAndCollect(job)) {
                got = new java.util.ArrayList<>();
                while (got.size() < N && it.hasNext()) {
                    got.add(it.next());
                }
                source.release();
                it.forEachRemaining(got::add);
            } finally {
                source.release();
            }

            assertEquals(N, got.size());
            assertEquals(2 * N, server.requests(), "the server saw a 503 and a 200 per key");
            // One 503 per key: counted as a status error, and waited out (Retry-After: 1) as a scheduled retry.
            assertEquals(expected(2L * N, N, N), values(job, "async wait operator"));
            assertEquals(FlinkTestCluster.PARALLELISM, MetricsCapture.of(job, "async wait operator").stream()
                    .map(MetricsCapture.Reported::subtask).distinct().count(), "reported by both subtasks");
        }
    }

    @Test
    void theSinkCountsEachAttemptItsErrorsAndItsRequeues() throws Exception {
        try (ScriptedServer server = ScriptedServer.start(1)) {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(FlinkTestCluster.PARALLELISM);
            env.fromData(IntStream.range(0, N).mapToObj(i -> "s" + i).toList()).rebalance()
                    .sinkTo(StrandHttpSink.builder(HttpSettings.of(server.baseUrl()),
                                    (String k) -> HttpSinkEntry.postJson("/flaky/" + k, "{}"))
                            .maxBatchSize(5)
                            .backoff(Duration.ofMillis(10), Duration.ofMillis(200))
                            .build());
            String job = "metrics-sink";
            env.execute(job);

            assertEquals(2 * N, server.requests());
            // Retry-After: 1 is capped by the back-off's maximum (200 ms); each 503 re-queues its entry once.
            assertEquals(expected(2L * N, N, N), values(job, "Writer"));
            assertTrue(MetricsCapture.sum(job, "Writer", "strand.latencyMs") > 0);
        }
    }
}
