package dev.strand.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.flink.example.EnrichAndSinkJob;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The README's example job runs end to end, and the README shows it as it is. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ExtendWith(NettyLeakDetectorExtension.class)
class ExampleJobTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = FlinkTestCluster.extension();

    @RegisterExtension
    static final TestServerExtension LOOKUP = TestServerExtension.start();

    @Test
    void theExampleEnrichesEveryIdAndDeliversItToTheSink() throws Exception {
        try (ScriptedServer collector = ScriptedServer.start(0)) {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(FlinkTestCluster.PARALLELISM);
            EnrichAndSinkJob.build(env, LOOKUP.get().baseUri().toString(), collector.baseUrl(), 500);

            env.execute("example");

            List<String> expected = LongStream.rangeClosed(1, 500)
                    .mapToObj(id -> "{\"id\":" + id + ",\"status\":200}").sorted().toList();
            assertEquals(expected, collector.bodies().stream().sorted().toList());
        }
    }

    @Test
    void theReadmeShowsTheExampleAsItIs() throws IOException {
        Path module = Path.of("").toAbsolutePath();
        String readme = Files.readString(module.resolve("README.md"));
        String source = Files.readString(
                module.resolve("src/test/java/dev/strand/flink/example/EnrichAndSinkJob.java"));
        String body = source.substring(source.indexOf("    public static void build("));
        assertTrue(readme.contains(body), "strand-flink/README.md must include build(...) of EnrichAndSinkJob verbatim");
    }
}
