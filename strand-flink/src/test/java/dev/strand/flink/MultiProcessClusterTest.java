package dev.strand.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.flink.example.EnrichAndSinkJob;
import dev.strand.testkit.TestServerExtension;
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
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's example job on a real Flink session cluster of separate JVMs ({@link ProcessCluster}: a JobManager
 * and two TaskManagers, without Strand or unshaded Netty on their classpath). The job goes in a job jar assembled
 * as a user would ship it (the job class, strand-flink, Strand core and Netty) and is submitted with that jar
 * attached, as {@code flink run} does. The processes' logs are printed when the test fails.
 */
@Tag("flink-cluster")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class MultiProcessClusterTest {

    @RegisterExtension
    static final TestServerExtension LOOKUP = TestServerExtension.start();

    private static final long COUNT = 1_000;
    private static final Duration JOB = Duration.ofMinutes(3);

    @TempDir
    Path tmp;

    @Test
    void theExampleJobJarRunsOnASessionClusterOfSeparateJvms() throws Throwable {
        try (ScriptedServer collector = ScriptedServer.start(0);
                ProcessCluster cluster = ProcessCluster.start(tmp, JOB)) {
            try {
                Path jobJar = cluster.buildJobJar(EnrichAndSinkJob.class);
                long submitStart = System.nanoTime();
                JobResult result = cluster.submitAndWait(jobJar,
                        LOOKUP.get().baseUri().toString(), collector.baseUrl(), String.valueOf(COUNT));

                long submitMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - submitStart);
                assertTrue(result.isSuccess(), () -> "job failed: " + result.getSerializedThrowable()
                        .map(t -> ExceptionUtils.stringifyException(
                                t.deserializeError(getClass().getClassLoader()))).orElse("?"));
                List<String> expected = LongStream.rangeClosed(1, COUNT)
                        .mapToObj(id -> "{\"id\":" + id + ",\"status\":200}").sorted().toList();
                assertEquals(expected, collector.bodies().stream().sorted().toList(),
                        "every id enriched and delivered once");
                for (Map.Entry<String, Path> log : cluster.logs().entrySet()) {
                    assertFalse(Files.readString(log.getValue()).contains("LEAK:"), log.getKey() + " reports a leak");
                }
                // One slot per TaskManager and parallelism 2: each TaskManager ran one subtask of the job.
                for (String tm : List.of("taskmanager-1", "taskmanager-2")) {
                    List<String> ran = Files.readAllLines(cluster.logs().get(tm)).stream()
                            .filter(l -> l.contains("async wait operator") && l.contains("switched from RUNNING to FINISHED"))
                            .toList();
                    assertEquals(1, ran.size(), tm + " ran one subtask of the job to the end: " + ran);
                    System.out.println(tm + ": " + ran.get(0));
                }
                System.out.printf("cluster job: %d records in %d ms (submit to result), job jar %d KiB%n", COUNT,
                        submitMillis, Files.size(jobJar) / 1024);
            } catch (Throwable t) {
                cluster.printLogs();
                throw t;
            }
        }
    }
}
