package dev.strand.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.testkit.NettyLeakDetectorExtension;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Flink's async retry with {@link StrandRetryStrategy} against a server that answers 503 + Retry-After twice. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ExtendWith(NettyLeakDetectorExtension.class)
class RetryTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = FlinkTestCluster.extension();

    private ScriptedServer server;

    @BeforeEach
    void start() {
        server = ScriptedServer.start(2);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void retriesTwo503sWithRetryAfterThenSucceeds() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(FlinkTestCluster.PARALLELISM);
        List<String> keys = IntStream.range(0, 8).mapToObj(i -> "k" + i).toList();
        StrandAsyncFunction<String, String> fn = StrandAsyncFunction.builder(
                        HttpSettings.of(server.baseUrl()),
                        (String k) -> Request.get("/flaky/" + k),
                        (String k, dev.strand.Response r) -> k + "=" + r.text())
                .outputType(Types.STRING)
                .build();
        HeldSource source = new HeldSource(keys);
        DataStream<String> out = AsyncDataStream.orderedWaitWithRetry(
                env.addSource(source, org.apache.flink.api.common.typeinfo.Types.STRING).setParallelism(1).rebalance(), fn,
                60, TimeUnit.SECONDS, 10,
                StrandRetryStrategy.<String>builder().maxRetries(3).initialBackoffMillis(10).build());

        long start = System.nanoTime();
        List<String> got = Jobs.collectThenRelease(out, keys.size(), source);
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertEquals(keys.stream().map(k -> k + "=ok:" + k).sorted().toList(), got.stream().sorted().toList());
        for (String k : keys) {
            assertEquals(3, server.calls(k), "two 503s and the 200 for " + k);
        }
        // Two Retry-After: 1 waits per record, which run side by side across records.
        assertTrue(elapsedMs >= 2000, "Retry-After honoured: took " + elapsedMs + " ms");
    }

    @Test
    void aPostIsNotRetriedByDefaultAndTheJobFailsNamingTheRecord() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(FlinkTestCluster.PARALLELISM);
        StrandAsyncFunction<String, String> fn = StrandAsyncFunction.builder(
                        HttpSettings.of(server.baseUrl()),
                        (String k) -> Request.builder("POST", "/flaky/" + k).body(RequestBody.of(k)).build(),
                        (String k, dev.strand.Response r) -> k + "=" + r.text())
                .outputType(Types.STRING)
                .maxRetryAfter(java.time.Duration.ZERO)
                .build();
        DataStream<String> out = AsyncDataStream.orderedWaitWithRetry(env.fromData(List.of("post-1")), fn,
                60, TimeUnit.SECONDS, 10,
                StrandRetryStrategy.<String>builder().maxRetries(3).initialBackoffMillis(10).build());

        Exception e = assertThrows(Exception.class, () -> Jobs.collect(out));

        assertTrue(Jobs.causeMentions(e, "record \"post-1\" (POST " + server.baseUrl() + "/flaky/post-1): status 503"),
                () -> "failure names the record and status: " + org.apache.flink.util.ExceptionUtils.stringifyException(e));
        assertEquals(1, server.calls("post-1"), "POST is not idempotent: sent once");
    }
}
