package dev.strand.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.IdempotencyLedger;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link StrandHttpSink} with idempotency keys against the testkit's {@code /idempotent}: the header and its form,
 * the derived key's caveat (identical records share a key) and an extractor that tells them apart.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ExtendWith(NettyLeakDetectorExtension.class)
class IdempotentSinkTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = FlinkTestCluster.extension();

    private static void run(List<String> records, StrandHttpSink.Builder<String> sink) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(FlinkTestCluster.PARALLELISM);
        env.fromData(records).rebalance().sinkTo(sink.maxBatchSize(1).build());
        env.execute("idempotent sink");
    }

    @Test
    void derivedKeysCollapseIdenticalRecordsAtAServerThatHonoursThem() throws Exception {
        try (TestServer server = TestServer.start()) {
            run(List.of("a", "b", "a", "c"), StrandHttpSink.builder(HttpSettings.of(server.baseUri().toString()),
                    (String s) -> HttpSinkEntry.postJson("/idempotent", "\"" + s + "\"")).idempotencyKeys());
            IdempotencyLedger l = server.idempotency();
            assertEquals(4, l.requests(), "one request per record");
            assertEquals(0, l.missingKeys(), "each carried Idempotency-Key as an sf-string");
            // The documented caveat: the two "a" records are one entry, so one key, so one write.
            assertEquals(List.of("\"a\"", "\"b\"", "\"c\""), l.effectiveBodies().stream().sorted().toList());
            assertEquals(1, l.replays());
        }
    }

    @Test
    void anExtractedKeySentBareUnderAnotherHeaderTellsIdenticalBodiesApart() throws Exception {
        try (TestServer server = TestServer.start()) {
            // Records "body#id": the id is the record's identity (as an event id or a source offset would be), the
            // body alone may repeat. The last record is a true duplicate of the second.
            run(List.of("a#1", "a#2", "b#3", "a#2"), StrandHttpSink.builder(
                            HttpSettings.of(server.baseUri().toString()),
                            (String s) -> HttpSinkEntry.postJson("/idempotent?header=X-Request-Id",
                                    "\"" + s.substring(0, s.indexOf('#')) + "\""))
                    .idempotencyKeys(s -> "event-" + s.substring(s.indexOf('#') + 1))
                    .idempotencyKeyHeader("X-Request-Id", false));
            IdempotencyLedger l = server.idempotency();
            assertEquals(4, l.requests());
            assertEquals(0, l.missingKeys(), "the key went in X-Request-Id");
            assertEquals(List.of("\"a\"", "\"a\"", "\"b\""), l.effectiveBodies().stream().sorted().toList(),
                    "identical bodies with distinct keys both took effect");
            assertEquals(1, l.replays(), "event-2 twice: one write");
            assertEquals(0, l.conflicts());
        }
    }

    @Test
    void keysAndBatchesAreRefusedTogetherAndBadHeaderNamesAtOnce() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> StrandHttpSink.builder(
                        HttpSettings.of("http://127.0.0.1:1"), (String s) -> HttpSinkEntry.postJson("/i", s))
                .batch("POST", "/bulk", "application/x-ndjson", BatchEncoder.ndjson())
                .idempotencyKeys()
                .build());
        assertTrue(e.getMessage().contains("per entry"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> StrandHttpSink.builder(
                        HttpSettings.of("http://127.0.0.1:1"), (String s) -> HttpSinkEntry.postJson("/i", s))
                .idempotencyKeyHeader("Bad Name", true));
    }
}
