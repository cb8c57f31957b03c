package dev.strand.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Request;
import dev.strand.testkit.NettyLeakDetectorExtension;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A checkpointed job (enrichment with {@link StrandAsyncFunction}, then {@link StrandHttpSink}) survives one injected
 * task failure: Flink restarts it from its last completed checkpoint, and the server's request log shows every
 * record enriched and delivered. At-least-once is the promise, so records replayed since that checkpoint show up
 * twice: the test counts them, and checks there are fewer than a restart from scratch would give.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@ExtendWith(NettyLeakDetectorExtension.class)
class CheckpointRestartTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = FlinkTestCluster.extension();

    private static final int N = 4_000;

    /** The MiniCluster runs in this JVM with the test's class loader, so statics reach the running tasks. */
    static final AtomicBoolean FAILED = new AtomicBoolean();
    static final AtomicLong CHECKPOINTS_COMPLETED = new AtomicLong();
    static final AtomicLong FAILED_AFTER_CHECKPOINT = new AtomicLong(-1);
    static final AtomicLong RESTORED_ATTEMPTS = new AtomicLong();

    @Test
    void aTaskFailureMidStreamRestartsFromTheCheckpointAndNoRecordIsLost() throws Exception {
        FAILED.set(false);
        CHECKPOINTS_COMPLETED.set(0);
        FAILED_AFTER_CHECKPOINT.set(-1);
        RESTORED_ATTEMPTS.set(0);
        try (ScriptedServer lookup = ScriptedServer.start(0); ScriptedServer collector = ScriptedServer.start(0)) {
            Configuration conf = new Configuration();
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
            env.setParallelism(FlinkTestCluster.PARALLELISM);
            env.enableCheckpointing(200);

            DataStream<Long> paced = env.fromSequence(1, N).map(new PaceThenFailOnce()).returns(Types.LONG);
            StrandAsyncFunction<Long, String> enrich = StrandAsyncFunction.builder(
                            HttpSettings.builder().baseUrl(lookup.baseUrl()).poolSize(20).build(),
                            (Long id) -> Request.get("/flaky/" + id),
                            (Long id, dev.strand.Response r) -> r.text())
                    .outputType(Types.STRING)
                    .build();
            AsyncDataStream.orderedWait(paced, enrich, 30, TimeUnit.SECONDS, 20)
                    .sinkTo(StrandHttpSink.builder(HttpSettings.of(collector.baseUrl()),
                                    (String line) -> HttpSinkEntry.postJson("/ingest", "\"" + line + "\""))
                            .maxBatchSize(1)
                            .build());

            env.execute("checkpoint-restart");

            assertTrue(FAILED.get(), "the failure was injected");
            assertTrue(FAILED_AFTER_CHECKPOINT.get() >= 1,
                    "the failure came after a completed checkpoint: " + FAILED_AFTER_CHECKPOINT.get());
            assertTrue(RESTORED_ATTEMPTS.get() >= 1, "a task was restarted (attempt > 0)");

            // Enrichment: every id looked up at least once, from the lookup server's own count.
            List<Long> ids = LongStream.rangeClosed(1, N).boxed().toList();
            List<Long> lost = ids.stream().filter(id -> lookup.calls(String.valueOf(id)) == 0).toList();
            assertEquals(List.of(), lost, "ids never looked up");
            long lookups = ids.stream().mapToLong(id -> lookup.calls(String.valueOf(id))).sum();
            long lookupDuplicates = lookups - N;

            // Sink: every enriched record delivered at least once, from the collector's request log.
            Map<String, Long> delivered = collector.bodies().stream()
                    .collect(Collectors.groupingBy(b -> b, HashMap::new, Collectors.counting()));
            List<String> missing = ids.stream().map(id -> "\"ok:" + id + "\"")
                    .filter(b -> !delivered.containsKey(b)).toList();
            assertEquals(List.of(), missing, "records never delivered");
            assertEquals(N, delivered.size(), "nothing but the records was delivered: " + delivered.keySet().stream()
                    .filter(b -> !b.matches("\"ok:\\d+\"")).limit(5).toList());
            long sinkDuplicates = collector.bodies().size() - N;

            System.out.printf("checkpoint restart: %d records, failure after checkpoint %d; duplicates: %d lookups,"
                    + " %d sink deliveries%n", N, FAILED_AFTER_CHECKPOINT.get(), lookupDuplicates, sinkDuplicates);
            // A restart from scratch would repeat the failed subtask's whole share; from a checkpoint, only the tail.
            assertTrue(lookupDuplicates < N / 2, "restored from a checkpoint, not from scratch: " + lookupDuplicates
                    + " duplicate lookups");
            assertTrue(sinkDuplicates < N / 2, "restored from a checkpoint: " + sinkDuplicates + " duplicates");
        }
    }

    /**
     * Slows the stream down (about 1 ms a record, 20 ms while a subtask past 1000 records waits for its first
     * completed checkpoint) so that checkpoints complete mid-stream, and throws once: in the first subtask that has
     * seen a completed checkpoint and 1000 records.
     */
    static final class PaceThenFailOnce extends RichMapFunction<Long, Long> implements CheckpointListener {
        private static final long serialVersionUID = 1L;
        private transient long seen;
        private transient volatile long completed;

        @Override
        public void open(org.apache.flink.api.common.functions.OpenContext context) {
            if (getRuntimeContext().getTaskInfo().getAttemptNumber() > 0) {
                RESTORED_ATTEMPTS.incrementAndGet();
            }
        }

        @Override
        public Long map(Long value) throws Exception {
            seen++;
            // Past 1000 records and still no completed checkpoint (a busy machine): slow down, so that one
            // completes before this subtask's input runs out. Checkpoints still run between records.
            Thread.sleep(seen >= 1_000 && completed == 0 && !FAILED.get() ? 20 : 1);
            if (seen >= 1_000 && completed > 0 && FAILED.compareAndSet(false, true)) {
                FAILED_AFTER_CHECKPOINT.set(completed);
                throw new IllegalStateException("injected failure at record " + value);
            }
            return value;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            completed = checkpointId;
            CHECKPOINTS_COMPLETED.incrementAndGet();
        }
    }
}
