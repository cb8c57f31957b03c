package dev.strand.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.flink.example.EffectivelyOnceJob;
import dev.strand.testkit.IdempotencyLedger;
import dev.strand.testkit.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Effectively-once delivery through {@link StrandHttpSink} with idempotency keys, on a session cluster of separate
 * JVMs ({@link ProcessCluster}), under three injected task failures ({@link EffectivelyOnceJob}): as a checkpoint
 * starts, while it snapshots, and just after one completed. The server, the testkit's {@code /idempotent}, applies a
 * key once and holds each answer back 40 ms after the write took effect, so requests are in flight (applied, not
 * yet acknowledged) when a task dies; "during" may find none, since the sink waits for its requests before its
 * snapshot. Every record must have taken effect exactly once; the duplicates Flink's replays put on the wire are
 * counted and printed (a server that ignored the key would have applied each of them again).
 */
@Tag("flink-cluster")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EffectivelyOnceClusterTest {

    private static final int COUNT = 3_000;
    private static final List<String> SCRIPT = List.of("before", "during", "after");

    @TempDir
    Path tmp;

    @Test
    void everyRecordTakesEffectOnceThroughFailuresBeforeDuringAndAfterACheckpoint() throws Throwable {
        try (TestServer sink = TestServer.start(); ScriptedServer control = ScriptedServer.start(0);
                ProcessCluster cluster = ProcessCluster.start(tmp, Duration.ofSeconds(75))) {
            IdempotencyLedger ledger = sink.idempotency();
            control.failureScript(SCRIPT, ledger::inProgress, java.util.Set.of("before", "after"));
            try {
                Path jar = cluster.buildJobJar(EffectivelyOnceJob.class);
                long start = System.nanoTime();
                JobResult result = cluster.submitAndWait(jar, sink.baseUri().toString(), control.baseUrl(),
                        String.valueOf(COUNT));
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertTrue(result.isSuccess(), () -> "job failed: " + result.getSerializedThrowable()
                        .map(t -> ExceptionUtils.stringifyException(
                                t.deserializeError(getClass().getClassLoader()))).orElse("?"));

                Map<String, Integer> injected = control.injected();
                assertEquals(SCRIPT, List.copyOf(injected.keySet()), "every failure was injected, in order");
                java.util.Set<String> logged = new java.util.TreeSet<>();
                cluster.logs().values().forEach(log -> logged.addAll(injectedIn(log)));
                assertEquals(new java.util.TreeSet<>(SCRIPT), logged, "the cluster logged each injected failure");

                List<String> expected = LongStream.rangeClosed(1, COUNT).mapToObj(id -> "{\"id\":" + id + "}")
                        .sorted().toList();
                assertEquals(expected, ledger.effectiveBodies().stream().sorted().toList(),
                        "every record took effect, once");
                assertEquals(0, ledger.conflicts(), "no key was reused for another body");
                assertEquals(0, ledger.missingKeys(), "every request carried a key");
                long duplicates = ledger.requests() - ledger.effectiveWrites();
                assertEquals(ledger.replays(), duplicates, "every request beyond the first of its key was a replay");
                System.out.printf("effectively once: %d records, %d effective writes, %d requests, %d duplicates on"
                        + " the wire (replays absorbed by the key), requests in flight at the failures %s;"
                        + " %d ms submit to result%n", COUNT, ledger.effectiveWrites(), ledger.requests(),
                        duplicates, injected, millis);
                assertTrue(injected.get("before") + injected.get("after") > 0,
                        "requests were in flight at a failure: " + injected);
                // Replays since the restored checkpoints reach the wire: without them this test would prove nothing.
                assertTrue(duplicates > 0, "some writes were replayed after a restore");
            } catch (Throwable t) {
                cluster.printLogs();
                throw t;
            }
        }
    }

    /** The points of the injected failures a process's log reports (Flink logs the task's exception). */
    private static java.util.Set<String> injectedIn(Path log) {
        java.util.regex.Pattern p = java.util.regex.Pattern.compile("injected failure '(\\w+)'");
        try {
            java.util.Set<String> points = new java.util.HashSet<>();
            for (String line : Files.readAllLines(log)) {
                java.util.regex.Matcher m = p.matcher(line);
                if (m.find()) {
                    points.add(m.group(1));
                }
            }
            return points;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
