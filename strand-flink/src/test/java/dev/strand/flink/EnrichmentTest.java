package dev.strand.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Request;
import dev.strand.flink.internal.ClientLease;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Ordered and unordered enrichment against the testkit server, at parallelism 2: every record, right output. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ExtendWith(NettyLeakDetectorExtension.class)
class EnrichmentTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = FlinkTestCluster.extension();

    @RegisterExtension
    static final TestServerExtension SERVER = TestServerExtension.start();

    private static final Pattern QUERY = Pattern.compile("\"query\"\\s*:\\s*\"([^\"]*)\"");

    @Test
    void unorderedEnrichmentAnswersEveryRecordWithItsOwnResponse() throws Exception {
        int n = 500;
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(FlinkTestCluster.PARALLELISM);
        List<String> ids = IntStream.range(0, n).mapToObj(i -> "id" + i).toList();
        StrandAsyncFunction<String, String> echo = StrandAsyncFunction.builder(
                        HttpSettings.builder().baseUrl(SERVER.get().baseUri().toString()).poolSize(20).build(),
                        (String id) -> Request.get("/echo?key=" + id),
                        (String id, dev.strand.Response r) -> id + "->" + query(r.text()))
                .outputType(Types.STRING)
                .build();
        DataStream<String> out = AsyncDataStream.unorderedWait(
                env.fromData(ids).rebalance(), echo, 30, TimeUnit.SECONDS, 20);

        List<String> got = Jobs.collect(out);

        assertEquals(n, got.size(), "one output per record");
        assertEquals(ids.stream().map(id -> id + "->key=" + id).sorted().toList(), got.stream().sorted().toList());
    }

    @Test
    void subtasksSharingOneClientEnrichEveryRecordOverItsPoolAndCloseItWithTheLast() throws Exception {
        int n = 400;
        int capacity = 10;
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(FlinkTestCluster.PARALLELISM);
        List<String> ids = IntStream.range(0, n).mapToObj(i -> "id" + i).toList();
        long acceptedBefore = SERVER.get().acceptedConnections();
        StrandAsyncFunction<String, String> echo = StrandAsyncFunction.builder(
                        HttpSettings.builder().baseUrl(SERVER.get().baseUri().toString())
                                .poolSize(capacity * FlinkTestCluster.PARALLELISM).sharedClient(true).build(),
                        (String id) -> Request.get("/echo?key=" + id),
                        (String id, dev.strand.Response r) -> id + "->" + query(r.text()))
                .outputType(Types.STRING)
                .build();
        DataStream<String> out = AsyncDataStream.unorderedWait(
                env.fromData(ids).rebalance(), echo, 30, TimeUnit.SECONDS, capacity);

        List<String> got = Jobs.collect(out);

        assertEquals(ids.stream().map(id -> id + "->key=" + id).sorted().toList(), got.stream().sorted().toList());
        long opened = SERVER.get().acceptedConnections() - acceptedBefore;
        assertTrue(opened >= 1 && opened <= capacity * FlinkTestCluster.PARALLELISM,
                "one pool for both subtasks, at most its size: " + opened);
        assertEquals(0, ClientLease.sharedClientsOpen(), "the last subtask to close closed the shared client");
    }

    @Test
    void orderedEnrichmentKeepsEachSubtasksInputOrderThoughLaterRecordsAnswerFirst() throws Exception {
        int n = 40;
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(FlinkTestCluster.PARALLELISM);
        List<String> ids = IntStream.range(0, n).mapToObj(i -> String.format("%03d", i)).toList();
        // Earlier records wait longer, so answers arrive in reverse: only ordering can put them back.
        StrandAsyncFunction<String, String> slow = StrandAsyncFunction.builder(
                        HttpSettings.builder().baseUrl(SERVER.get().baseUri().toString()).poolSize(n).build(),
                        (String id) -> Request.get("/delay/" + (n - Integer.parseInt(id)) * 10),
                        (String id, dev.strand.Response r) -> id + ":" + r.status())
                .build();
        DataStream<String> out = AsyncDataStream.orderedWait(
                        env.fromData(ids).rebalance(), slow, 30, TimeUnit.SECONDS, n)
                .returns(Types.STRING)
                .map(new Jobs.TagSubtask());

        List<String> got = Jobs.collect(out);

        assertEquals(n, got.size(), "one output per record: " + got);
        Map<String, List<String>> bySubtask = new HashMap<>();
        for (String s : got) {
            String[] parts = s.split("\\|");
            bySubtask.computeIfAbsent(parts[0], k -> new ArrayList<>()).add(parts[1]);
        }
        assertEquals(2, bySubtask.size(), "both subtasks took records: " + bySubtask.keySet());
        for (List<String> seq : bySubtask.values()) {
            assertEquals(seq.stream().sorted().toList(), seq, "ordered output within a subtask");
            assertTrue(seq.stream().allMatch(s -> s.endsWith(":200")), seq.toString());
        }
        assertEquals(ids.stream().map(id -> id + ":200").collect(Collectors.toSet()),
                bySubtask.values().stream().flatMap(List::stream).collect(Collectors.toSet()));
    }

    static String query(String json) {
        Matcher m = QUERY.matcher(json);
        return m.find() ? m.group(1) : "<no query in " + json + ">";
    }
}
