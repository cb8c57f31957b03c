package dev.strand.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The MiniCluster starts and runs a job at parallelism 2 on this JDK with the module's JVM flags. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MiniClusterSmokeTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = FlinkTestCluster.extension();

    @Test
    void runsAJobAtParallelismTwo() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        List<Long> out = new ArrayList<>();
        try (CloseableIterator<Long> it = env.fromSequence(1, 100).map(x -> x * 2).executeAndCollect()) {
            it.forEachRemaining(out::add);
        }
        assertEquals(100, out.size());
        assertEquals(2 * 5050L, out.stream().mapToLong(Long::longValue).sum());
    }
}
