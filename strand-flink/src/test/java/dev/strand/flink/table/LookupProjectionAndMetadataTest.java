package dev.strand.flink.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A lookup table's projection push-down (only the columns a query uses are decoded) and its metadata columns
 * ({@code status}, {@code latency-ms}, {@code headers}), on a MiniCluster against a loopback server.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ExtendWith(NettyLeakDetectorExtension.class)
class LookupProjectionAndMetadataTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = TableTestCluster.extension();

    private TableTestServer server;
    private StreamTableEnvironment tEnv;

    @BeforeEach
    void start() {
        server = new TableTestServer(5);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(TableTestCluster.PARALLELISM);
        tEnv = StreamTableEnvironment.create(env);
        tEnv.createTemporaryView("orders", tEnv.fromDataStream(env.fromSequence(1, 6), Schema.newBuilder()
                .column("f0", DataTypes.BIGINT()).columnByExpression("proc", "PROCTIME()").build()));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private List<Row> run(String query) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(query).collect()) {
            it.forEachRemaining(rows::add);
        }
        rows.sort((a, b) -> Long.compare((Long) a.getField(0), (Long) b.getField(0)));
        return rows;
    }

    @Test
    void onlyTheColumnsTheQueryUsesAreDecoded() throws Exception {
        // The server's "score" is a number, which cannot decode as this ROW: reading it would fail the job.
        tEnv.executeSql("CREATE TABLE users (id BIGINT, name STRING, score ROW<x INT>) WITH ("
                + "'connector' = 'strand-http', 'url' = '" + server.baseUrl() + "/users/{id}', 'format' = 'json')");
        String query = "SELECT o.f0, u.name FROM orders AS o JOIN users FOR SYSTEM_TIME AS OF o.proc AS u "
                + "ON o.f0 = u.id";

        List<Row> rows = run(query);
        assertEquals(List.of(Row.of(1L, "user-1"), Row.of(2L, "user-2"), Row.of(3L, "user-3"), Row.of(4L, "user-4"),
                Row.of(5L, "user-5")), rows);

        // The control: the same table with score in the query fails on decoding, so the projection above mattered.
        String control = "SELECT o.f0, u.score FROM orders AS o JOIN users FOR SYSTEM_TIME AS OF o.proc AS u "
                + "ON o.f0 = u.id";
        Exception e = assertThrows(Exception.class, () -> run(control));
        for (int attempt = 1; attempt < 6 && TableTestCluster.causeMentions(e, "was lost"); attempt++) {
            // Flink may report its own follow-on failure (the source's NoMoreSplitEvent lost on the task that
            // the decoding had already failed) instead of the first one: that says nothing, so run it again.
            e = assertThrows(Exception.class, () -> run(control));
        }
        Exception failure = e;
        assertTrue(TableTestCluster.causeMentions(failure, "could not decode"),
                () -> ExceptionUtils.stringifyException(failure));
    }

    @Test
    void metadataColumnsCarryTheStatusTheLatencyAndTheSelectedHeaders() throws Exception {
        tEnv.executeSql("CREATE TABLE users (id BIGINT, name STRING, score INT,"
                + " code INT METADATA FROM 'status', took BIGINT METADATA FROM 'latency-ms',"
                + " hdrs MAP<STRING, STRING> METADATA FROM 'headers') WITH ("
                + "'connector' = 'strand-http', 'url' = '" + server.baseUrl() + "/users/{id}', 'format' = 'json',"
                + " 'metadata.headers' = 'Content-Type;X-Not-Sent')");

        List<Row> rows = run("SELECT o.f0, u.name, u.code, u.took >= 0 AND u.took < 60000,"
                + " u.hdrs['content-type'], CARDINALITY(u.hdrs) FROM orders AS o "
                + "LEFT JOIN users FOR SYSTEM_TIME AS OF o.proc AS u ON o.f0 = u.id");

        List<Row> expected = new ArrayList<>();
        for (long id = 1; id <= 5; id++) {
            expected.add(Row.of(id, "user-" + id, 200, true, "application/json", 1));
        }
        // A 404 gives no row, so a left join pads its metadata with nulls too.
        expected.add(Row.of(6L, null, null, null, null, null));
        assertEquals(expected, rows);
    }

    @Test
    void metadataAloneProjectsEveryPhysicalColumnButTheKeyAway() throws Exception {
        tEnv.executeSql("CREATE TABLE users (id BIGINT, name STRING, score INT,"
                + " code INT METADATA FROM 'status' VIRTUAL) WITH ("
                + "'connector' = 'strand-http', 'url' = '" + server.baseUrl() + "/users/{id}', 'format' = 'json')");
        List<Row> rows = run("SELECT o.f0, u.code FROM orders AS o "
                + "JOIN users FOR SYSTEM_TIME AS OF o.proc AS u ON o.f0 = u.id WHERE o.f0 <= 2");
        assertEquals(List.of(Row.of(1L, 200), Row.of(2L, 200)), rows);
    }

    @Test
    void aBadMetadataHeaderNameFailsAtPlanningNamingTheOption() {
        tEnv.executeSql("CREATE TABLE users (id BIGINT, name STRING) WITH ('connector' = 'strand-http',"
                + " 'url' = '" + server.baseUrl() + "/users/{id}', 'format' = 'json',"
                + " 'metadata.headers' = 'ETag;Bad Name')");
        Exception e = assertThrows(Exception.class, () -> tEnv.explainSql("SELECT o.f0, u.name FROM orders AS o "
                + "JOIN users FOR SYSTEM_TIME AS OF o.proc AS u ON o.f0 = u.id"));
        Throwable v = ExceptionUtils.findThrowable(e, ValidationException.class)
                .orElseThrow(() -> new AssertionError("no ValidationException", e));
        assertTrue(TableTestCluster.causeMentions(v, "Invalid value for option 'metadata.headers': 'Bad Name' is not"
                + " a header name"), () -> ExceptionUtils.stringifyException(e));
        assertEquals(0, server.callsUnder("/"), "nothing was sent: the error came at planning");
    }
}
