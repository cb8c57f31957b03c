package dev.strand.flink.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.IdempotencyLedger;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code 'sink.idempotency-keys'}: each row's request carries a key derived from it, in the header configured. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ExtendWith(NettyLeakDetectorExtension.class)
class IdempotentTableSinkTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = TableTestCluster.extension();

    private static void insert(StreamTableEnvironment tEnv, String table) throws Exception {
        tEnv.executeSql("INSERT INTO " + table + " VALUES (1, 'a'), (2, 'b'), (1, 'a')").await(90, TimeUnit.SECONDS);
    }

    @Test
    void rowsCarryKeysDerivedFromTheirRequestsAndARepeatedRowIsAppliedOnce() throws Exception {
        try (TestServer server = TestServer.start()) {
            StreamTableEnvironment tEnv = TableTestCluster.tableEnv();
            tEnv.executeSql("CREATE TABLE events (id BIGINT, name STRING) WITH ('connector' = 'strand-http',"
                    + " 'url' = '" + server.url("/idempotent") + "', 'format' = 'json',"
                    + " 'sink.idempotency-keys' = 'true')");
            insert(tEnv, "events");

            IdempotencyLedger l = server.idempotency();
            assertEquals(3, l.requests());
            assertEquals(0, l.missingKeys(), "every row carried Idempotency-Key");
            assertEquals(List.of("{\"id\":1,\"name\":\"a\"}", "{\"id\":2,\"name\":\"b\"}"),
                    l.effectiveBodies().stream().sorted().toList());
            assertEquals(1, l.replays(), "the repeated row: same request, same key");
        }
    }

    @Test
    void theKeyGoesBareInTheHeaderNamed() throws Exception {
        try (TestServer server = TestServer.start()) {
            StreamTableEnvironment tEnv = TableTestCluster.tableEnv();
            tEnv.executeSql("CREATE TABLE events (id BIGINT, name STRING) WITH ('connector' = 'strand-http',"
                    + " 'url' = '" + server.url("/idempotent?header=X-Request-Id") + "', 'format' = 'json',"
                    + " 'sink.idempotency-keys' = 'true', 'sink.idempotency-key.header' = 'X-Request-Id',"
                    + " 'sink.idempotency-key.quoted' = 'false')");
            insert(tEnv, "events");
            assertEquals(0, server.idempotency().missingKeys());
            assertEquals(2, server.idempotency().effectiveWrites());
        }
    }

    @Test
    void withoutTheOptionNoKeyIsSent() throws Exception {
        try (TestServer server = TestServer.start()) {
            StreamTableEnvironment tEnv = TableTestCluster.tableEnv();
            tEnv.executeSql("CREATE TABLE events (id BIGINT, name STRING) WITH ('connector' = 'strand-http',"
                    + " 'url' = '" + server.url("/idempotent") + "', 'format' = 'json', 'sink.max-attempts' = '1')");
            Exception e = assertThrows(Exception.class, () -> insert(tEnv, "events"));
            assertTrue(TableTestCluster.causeMentions(e, "status 400"), () -> ExceptionUtils.stringifyException(e));
            assertTrue(server.idempotency().missingKeys() >= 1);
        }
    }

    @Test
    void aBadHeaderNameFailsAtPlanning() {
        StreamTableEnvironment tEnv = TableTestCluster.tableEnv();
        tEnv.executeSql("CREATE TABLE events (id BIGINT, name STRING) WITH ('connector' = 'strand-http',"
                + " 'url' = 'http://127.0.0.1:1/x', 'format' = 'json', 'sink.idempotency-keys' = 'true',"
                + " 'sink.idempotency-key.header' = 'Bad Name')");
        Exception e = assertThrows(Exception.class,
                () -> tEnv.explainSql("INSERT INTO events VALUES (1, 'a')"));
        Throwable v = ExceptionUtils.findThrowable(e, ValidationException.class)
                .orElseThrow(() -> new AssertionError("no ValidationException", e));
        assertTrue(TableTestCluster.causeMentions(v, "Invalid value for option 'sink.idempotency-key.header':"
                + " 'Bad Name' is not a header name"), () -> ExceptionUtils.stringifyException(e));
    }
}
