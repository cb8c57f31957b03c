package dev.strand.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Request;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Bad input and slow servers end as a job failure naming the record, or as the configured timeout policy. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ExtendWith(NettyLeakDetectorExtension.class)
class FailureTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = FlinkTestCluster.extension();

    @RegisterExtension
    static final TestServerExtension SERVER = TestServerExtension.start();

    private static StreamExecutionEnvironment env() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(FlinkTestCluster.PARALLELISM);
        return env;
    }

    private static List<String> ids(int n) {
        return IntStream.range(0, n).mapToObj(i -> "rec-" + i).toList();
    }

    private static HttpSettings settings(Duration read) {
        return HttpSettings.builder().baseUrl(SERVER.get().baseUri().toString()).readTimeout(read).build();
    }

    @Test
    void aResponseMapperThatThrowsFailsTheJobNamingTheRecord() {
        StrandAsyncFunction<String, String> fn = StrandAsyncFunction.builder(settings(Duration.ofSeconds(5)),
                        (String id) -> Request.get("/small"),
                        (String id, dev.strand.Response r) -> {
                            if (id.equals("rec-7")) {
                                throw new IllegalStateException("cannot parse");
                            }
                            return id;
                        })
                .outputType(Types.STRING)
                .build();
        DataStream<String> out = AsyncDataStream.unorderedWait(env().fromData(ids(20)).rebalance(), fn,
                30, TimeUnit.SECONDS, 10);

        Exception e = assertThrows(Exception.class, () -> Jobs.collect(out));

        assertTrue(Jobs.causeMentions(e, "record \"rec-7\" (GET " + SERVER.url("/small")
                        + "): the response mapper threw java.lang.IllegalStateException: cannot parse"),
                () -> ExceptionUtils.stringifyException(e));
    }

    @Test
    void aMalformedUrlFromTheRequestMapperFailsTheJobNamingTheRecord() {
        StrandAsyncFunction<String, String> fn = StrandAsyncFunction.builder(settings(Duration.ofSeconds(5)),
                        (String id) -> Request.get(id.equals("rec-3") ? "http://bad host/" : "/small"),
                        (String id, dev.strand.Response r) -> id)
                .outputType(Types.STRING)
                .build();
        DataStream<String> out = AsyncDataStream.unorderedWait(env().fromData(ids(10)).rebalance(), fn,
                30, TimeUnit.SECONDS, 10);

        Exception e = assertThrows(Exception.class, () -> Jobs.collect(out));

        assertTrue(Jobs.causeMentions(e, "record \"rec-3\""), () -> ExceptionUtils.stringifyException(e));
        assertTrue(Jobs.causeMentions(e, "bad host"), () -> ExceptionUtils.stringifyException(e));
    }

    @Test
    void aServerAnsweringGarbageFailsTheJobNamingTheRecordAndTheCause() {
        StrandAsyncFunction<String, String> fn = StrandAsyncFunction.builder(settings(Duration.ofSeconds(5)),
                        (String id) -> Request.get("/fault/bad-status-line"),
                        (String id, dev.strand.Response r) -> id)
                .outputType(Types.STRING)
                .build();
        DataStream<String> out = AsyncDataStream.unorderedWait(env().fromData(List.of("only")), fn,
                30, TimeUnit.SECONDS, 10);

        Exception e = assertThrows(Exception.class, () -> Jobs.collect(out));

        assertTrue(Jobs.causeMentions(e, "record \"only\" (GET " + SERVER.url("/fault/bad-status-line") + "): dev.strand."),
                () -> ExceptionUtils.stringifyException(e));
    }

    @Test
    void timeoutFailByDefaultNamesTheRecord() {
        StrandAsyncFunction<String, String> fn = StrandAsyncFunction.builder(settings(Duration.ofSeconds(60)),
                        (String id) -> Request.get("/never"),
                        (String id, dev.strand.Response r) -> id)
                .outputType(Types.STRING)
                .build();
        DataStream<String> out = AsyncDataStream.orderedWait(env().fromData(List.of("slow-1")), fn,
                300, TimeUnit.MILLISECONDS, 10);

        Exception e = assertThrows(Exception.class, () -> Jobs.collect(out));

        assertTrue(Jobs.causeMentions(e, "record \"slow-1\": no result within the async operator's timeout"),
                () -> ExceptionUtils.stringifyException(e));
    }

    @Test
    void timeoutFallbackEmitsTheFallbackForSlowRecordsOnly() throws Exception {
        StrandAsyncFunction<String, String> fn = StrandAsyncFunction.builder(settings(Duration.ofSeconds(60)),
                        (String id) -> Request.get(id.endsWith("-0") ? "/never" : "/small"),
                        (String id, dev.strand.Response r) -> id + ":" + r.status())
                .outputType(Types.STRING)
                .timeoutPolicy(TimeoutPolicy.fallback(id -> id + ":fallback"))
                .build();
        DataStream<String> out = AsyncDataStream.unorderedWait(env().fromData(ids(4)).rebalance(), fn,
                500, TimeUnit.MILLISECONDS, 10);

        List<String> got = Jobs.collect(out);

        assertEquals(List.of("rec-0:fallback", "rec-1:200", "rec-2:200", "rec-3:200"), got.stream().sorted().toList());
    }

    @Test
    void timeoutDropEmitsNothingForSlowRecords() throws Exception {
        StrandAsyncFunction<String, String> fn = StrandAsyncFunction.builder(settings(Duration.ofSeconds(60)),
                        (String id) -> Request.get(id.endsWith("-1") ? "/never" : "/small"),
                        (String id, dev.strand.Response r) -> id + ":" + r.status())
                .outputType(Types.STRING)
                .timeoutPolicy(TimeoutPolicy.drop())
                .build();
        DataStream<String> out = AsyncDataStream.unorderedWait(env().fromData(ids(4)).rebalance(), fn,
                500, TimeUnit.MILLISECONDS, 10);

        List<String> got = Jobs.collect(out);

        assertEquals(List.of("rec-0:200", "rec-2:200", "rec-3:200"), got.stream().sorted().toList());
    }
}
