package dev.strand.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link StrandHttpSink} at parallelism 2, counted on the server side. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ExtendWith(NettyLeakDetectorExtension.class)
class HttpSinkTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = FlinkTestCluster.extension();

    private static StreamExecutionEnvironment env() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(FlinkTestCluster.PARALLELISM);
        return env;
    }

    private static List<String> records(int n) {
        return IntStream.range(0, n).mapToObj(i -> "{\"n\":" + i + "}").toList();
    }

    private static SinkEncoder<String> toIngest() {
        return s -> HttpSinkEntry.postJson("/ingest", s);
    }

    @Test
    void aServerDownForThreeSecondsGetsEveryRecordOnceItIsBack() throws Exception {
        List<String> records = records(300);
        try (ScriptedServer server = ScriptedServer.start(0)) {
            server.stop();
            StreamExecutionEnvironment env = env();
            env.fromData(records).rebalance().sinkTo(StrandHttpSink.builder(
                            HttpSettings.builder().baseUrl(server.baseUrl()).poolSize(20).build(), toIngest())
                    .maxBatchSize(10)
                    .maxAttempts(30)
                    .backoff(Duration.ofMillis(50), Duration.ofMillis(500))
                    .build());

            long start = System.nanoTime();
            JobClient job = env.executeAsync("sink-while-server-down");
            Thread.sleep(3000);
            assertTrue(!job.getJobStatus().get().isTerminalState(), "the sink waits for the server");
            server.restart();
            job.getJobExecutionResult().get(90, TimeUnit.SECONDS);
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            List<String> got = server.bodies();
            assertEquals(records.stream().sorted().toList(), got.stream().distinct().sorted().toList(),
                    "every record delivered");
            // A refused connection delivers nothing, so here at-least-once is exactly once.
            assertEquals(records.size(), got.size(), "duplicates: " + (got.size() - records.size()));
            assertTrue(elapsedMs >= 3000, "took " + elapsedMs + " ms");
        }
    }

    @Test
    void batchesAreSentAsNdjson() throws Exception {
        List<String> records = records(200);
        try (ScriptedServer server = ScriptedServer.start(0)) {
            StreamExecutionEnvironment env = env();
            env.fromData(records).rebalance().sinkTo(StrandHttpSink.builder(HttpSettings.of(server.baseUrl()),
                            toIngest())
                    .batch("POST", "/ingest", "application/x-ndjson", BatchEncoder.ndjson())
                    .maxBatchSize(25)
                    .build());

            env.execute("ndjson");

            List<String> lines = server.bodies().stream()
                    .flatMap(b -> Arrays.stream(b.split("\n")))
                    .toList();
            assertEquals(records.stream().sorted().toList(), lines.stream().sorted().toList());
            assertTrue(server.requests() < records.size() / 2, "batched: " + server.requests() + " requests");
            assertTrue(server.bodies().stream().allMatch(b -> b.endsWith("\n")), "NDJSON lines end with \\n");
        }
    }

    @Test
    void aRecordStillFailingAfterMaxAttemptsFailsTheJobNamingIt() {
        try (ScriptedServer server = ScriptedServer.start(1_000)) {
            StreamExecutionEnvironment env = env();
            env.fromData(List.of("payload-1")).sinkTo(StrandHttpSink.builder(HttpSettings.of(server.baseUrl()),
                            (String s) -> HttpSinkEntry.of("PUT", "/flaky/" + s, "text/plain",
                                    s.getBytes(StandardCharsets.UTF_8)))
                    .maxAttempts(3)
                    .backoff(Duration.ofMillis(10), Duration.ofMillis(20))
                    .build());

            Exception e = assertThrows(Exception.class, () -> env.execute("always-503"));

            assertTrue(Jobs.causeMentions(e, "record \"PUT /flaky/payload-1 [9 bytes: payload-1]\" (PUT "
                            + server.baseUrl() + "/flaky/payload-1): failed after 3 attempts, the last: status 503"),
                    () -> ExceptionUtils.stringifyException(e));
            assertEquals(3, server.calls("payload-1"));
        }
    }
}
