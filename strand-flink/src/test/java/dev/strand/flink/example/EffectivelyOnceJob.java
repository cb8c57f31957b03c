package dev.strand.flink.example;

import dev.strand.flink.HttpSettings;
import dev.strand.flink.HttpSinkEntry;
import dev.strand.flink.StrandHttpSink;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * A sink with idempotency keys under injected task failures: {@code COUNT} records {@code {"id":N}} are posted
 * one request per record, each under a key derived from its content, to a server that honours the keys; a
 * {@link FailureInjector} (a test device, not part of a real job) fails a task at points a control server hands
 * out, once each: {@code before} (as a checkpoint starts, before its barrier leaves), {@code during} (while the
 * operator's state is snapshotted) and {@code after} (30 records after a completed checkpoint). Flink
 * restarts from the last completed checkpoint each time (fixed delay, up to 10 restarts).
 *
 * <p>Arguments: {@code SINK_BASE_URL CONTROL_BASE_URL COUNT [WRITE_PATH]}, e.g.
 * {@code http://127.0.0.1:8080 http://127.0.0.1:9090 3000 /idempotent?delay=40}.
 */
public final class EffectivelyOnceJob {

    private EffectivelyOnceJob() {
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 10);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.enableCheckpointing(250);
        String path = args.length > 3 ? args[3] : "/idempotent?delay=40";
        env.fromSequence(1, Long.parseLong(args[2]))
                .transform("failure injector", Types.STRING, new FailureInjector(args[1]))
                .sinkTo(StrandHttpSink.builder(
                                HttpSettings.builder().baseUrl(args[0]).poolSize(40).build(),
                                (String line) -> HttpSinkEntry.postJson(path, line))
                        .idempotencyKeys()
                        .maxBatchSize(10)
                        .build());
        env.execute("strand effectively-once sink");
    }

    /**
     * Turns {@code N} into {@code {"id":N}}, about 3 ms a record until the script is done (so that checkpoints
     * complete between failures), and fails at the points the control server hands out. Claims are made only once
     * this attempt of the task has seen a completed checkpoint and 200 records, so that every failure restores
     * from a checkpoint with requests in flight; the server grants the k-th point only to an attempt k of a task,
     * so that each failure comes after the restart the one before caused.
     */
    static final class FailureInjector extends AbstractStreamOperator<String>
            implements OneInputStreamOperator<Long, String> {
        private static final long serialVersionUID = 1L;

        private final String control;
        private transient String next;
        private transient long seen;
        private transient int checkpoints;
        private transient long sinceCheckpoint = -1;

        FailureInjector(String control) {
            this.control = control;
        }

        @Override
        public void open() throws Exception {
            super.open();
            ask(null);
        }

        @Override
        public void processElement(StreamRecord<Long> element) throws Exception {
            seen++;
            // 'after': 30 records past a completed checkpoint, when the sink has requests of its own in flight.
            if (sinceCheckpoint >= 0 && ++sinceCheckpoint == 30 && ready("after")) {
                throw new IllegalStateException("injected failure 'after' at record " + element.getValue());
            }
            if (!"done".equals(next)) {
                Thread.sleep(3);
            }
            output.collect(element.replace("{\"id\":" + element.getValue() + "}"));
        }

        @Override
        public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
            super.prepareSnapshotPreBarrier(checkpointId);
            if (ready("before")) {
                throw new IllegalStateException("injected failure 'before' checkpoint " + checkpointId);
            }
        }

        @Override
        public void snapshotState(StateSnapshotContext context) throws Exception {
            super.snapshotState(context);
            if (ready("during")) {
                throw new IllegalStateException("injected failure 'during' checkpoint " + context.getCheckpointId());
            }
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            super.notifyCheckpointComplete(checkpointId);
            checkpoints++;
            sinceCheckpoint = 0;
            if (!"done".equals(next)) {
                ask(null); // another subtask may have claimed the point this one waits for
            }
        }

        /** Whether to fail here as {@code point}: it is the next one, the conditions hold, and the claim won. */
        private boolean ready(String point) {
            if (!point.equals(next) || checkpoints < 1 || seen < 200) {
                return false;
            }
            String answer = ask(point);
            return answer.startsWith("fail ");
        }

        /** Asks the control server; keeps the point it names next. */
        private String ask(String point) {
            int attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
            URI uri = URI.create(control + "/inject" + (point == null ? "" : "?point=" + point + "&attempt=" + attempt));
            try {
                HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
                c.setConnectTimeout(2000);
                c.setReadTimeout(2000);
                try (InputStream in = c.getInputStream()) {
                    String answer = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
                    next = answer.substring(answer.indexOf(' ') + 1);
                    return answer;
                } finally {
                    c.disconnect();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("the failure script's server did not answer at " + uri, e);
            }
        }
    }
}
