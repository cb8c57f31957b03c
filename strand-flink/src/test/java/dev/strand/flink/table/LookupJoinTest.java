package dev.strand.flink.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
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

/** Lookup joins on a {@code strand-http} table, at parallelism 2 on a MiniCluster, against a loopback server. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ExtendWith(NettyLeakDetectorExtension.class)
class LookupJoinTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = TableTestCluster.extension();

    /** The server knows users 1 to 30; orders name users 1 to 40. */
    private static final int KNOWN = 30;
    private static final int ORDERS = 40;

    private TableTestServer server;
    private StreamExecutionEnvironment env;
    private StreamTableEnvironment tEnv;

    @BeforeEach
    void start() {
        server = new TableTestServer(KNOWN);
        env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(TableTestCluster.PARALLELISM);
        tEnv = StreamTableEnvironment.create(env);
        tEnv.createTemporaryView("raw_orders", tEnv.fromDataStream(env.fromSequence(1, ORDERS),
                Schema.newBuilder()
                        .column("f0", DataTypes.BIGINT())
                        .columnByExpression("proc", "PROCTIME()")
                        .build()));
        tEnv.executeSql("CREATE TEMPORARY VIEW orders AS SELECT f0 AS user_id, proc FROM raw_orders");
        // A failing job is read from SQL VALUES: a source without a split coordinator, whose lost events would
        // otherwise race the lookup's failure to be the reported cause.
        tEnv.executeSql("CREATE TEMPORARY VIEW few_orders AS SELECT user_id, PROCTIME() AS proc "
                + "FROM (VALUES (CAST(1 AS BIGINT)), (2), (3)) AS t(user_id)");
        usersTable("users", "/users/{id}", "");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private void usersTable(String name, String path, String extraOptions) {
        tEnv.executeSql("CREATE TABLE " + name + " (id BIGINT, name STRING, score INT) WITH ("
                + "'connector' = 'strand-http', "
                + "'url' = '" + server.baseUrl() + path + "', "
                + "'format' = 'json', "
                + "'pool.size' = '10'" + extraOptions + ")");
    }

    private List<Row> run(String query) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(query).collect()) {
            it.forEachRemaining(rows::add);
        }
        return rows;
    }

    @Test
    void anInnerLookupJoinEnrichesEveryKnownKeyAndDropsTheMissingOnes() throws Exception {
        List<Row> rows = run("SELECT o.user_id, u.id, u.name, u.score FROM orders AS o "
                + "JOIN users FOR SYSTEM_TIME AS OF o.proc AS u ON o.user_id = u.id");

        Map<Long, Row> byId = new TreeMap<>();
        for (Row r : rows) {
            assertEquals(null, byId.put((Long) r.getField(0), r), "one row per order: " + rows);
        }
        assertEquals(KNOWN, rows.size(), "rows: " + rows);
        for (long id = 1; id <= KNOWN; id++) {
            Row r = byId.get(id);
            assertEquals(Row.of(id, id, "user-" + id, (int) id * 10), r, "order " + id);
        }
        for (long id = 1; id <= ORDERS; id++) {
            assertEquals(1, server.calls("/users/" + id), "one request for user " + id);
        }
    }

    @Test
    void aLeftLookupJoinPadsAMissingKeyWithNulls() throws Exception {
        List<Row> rows = run("SELECT o.user_id, u.name FROM orders AS o "
                + "LEFT JOIN users FOR SYSTEM_TIME AS OF o.proc AS u ON o.user_id = u.id");

        Map<Long, String> names = new TreeMap<>();
        rows.forEach(r -> names.put((Long) r.getField(0), (String) r.getField(1)));
        assertEquals(ORDERS, rows.size(), "rows: " + rows);
        for (long id = 1; id <= ORDERS; id++) {
            assertEquals(id <= KNOWN ? "user-" + id : null, names.get(id), "order " + id);
        }
    }

    @Test
    void keysArePercentEncodedIntoTheUrl() throws Exception {
        tEnv.executeSql("CREATE TABLE echo (word STRING, encoded STRING) WITH ('connector' = 'strand-http', "
                + "'url' = '" + server.baseUrl() + "/echo/{word}', 'format' = 'json')");
        tEnv.createTemporaryView("words", tEnv.fromDataStream(env.fromData("plain", "two words", "a/b", "x&y=z",
                        "grüß"),
                Schema.newBuilder().column("f0", DataTypes.STRING()).columnByExpression("proc", "PROCTIME()")
                        .build()));

        List<Row> rows = run("SELECT w.f0, e.word, e.encoded FROM words AS w "
                + "JOIN echo FOR SYSTEM_TIME AS OF w.proc AS e ON w.f0 = e.word");

        Map<String, String> encoded = rows.stream().collect(Collectors.toMap(r -> (String) r.getField(1),
                r -> (String) r.getField(2)));
        assertEquals(Map.of("plain", "plain", "two words", "two%20words", "a/b", "a%2Fb", "x&y=z", "x%26y%3Dz",
                "grüß", "gr%C3%BC%C3%9F"), encoded);
    }

    @Test
    void aServerErrorFailsTheJobNamingTheKeyAndTheUrlAfterTheRetries() {
        usersTable("broken", "/boom/{id}", ", 'lookup.max-retries' = '1'");

        Exception e = assertThrows(Exception.class, () -> run("SELECT o.user_id, b.name FROM few_orders AS o "
                + "JOIN broken FOR SYSTEM_TIME AS OF o.proc AS b ON o.user_id = b.id"));

        String trace = ExceptionUtils.stringifyException(e);
        assertTrue(TableTestCluster.causeMentions(e, " (GET " + server.baseUrl() + "/boom/"), trace);
        assertTrue(TableTestCluster.causeMentions(e, "): status 500"), trace);
        assertTrue(TableTestCluster.causeMentions(e, "(after 1 retry)"), trace);
        assertTrue(trace.matches("(?s).*record \"key id=(\\d+)\" \\(GET \\Q" + server.baseUrl()
                + "\\E/boom/\\1\\): status 500.*"), trace);
    }

    @Test
    void aPostLookupSendsTheKeyEncodedWithTheFormat() throws Exception {
        usersTable("posted", "/lookup", ", 'method' = 'POST', 'headers.X-Token' = 't'");

        List<Row> rows = run("SELECT o.user_id, p.id, p.name FROM orders AS o "
                + "JOIN posted FOR SYSTEM_TIME AS OF o.proc AS p ON o.user_id = p.id");

        assertEquals(ORDERS, rows.size(), "rows: " + rows);
        rows.forEach(r -> assertEquals(Row.of(r.getField(0), r.getField(0), "posted"), r));
        Map<String, TableTestServer.Ingested> byBody = new TreeMap<>();
        server.ingested().forEach(i -> byBody.put(i.body(), i));
        assertEquals(ORDERS, server.ingested().size());
        for (long id = 1; id <= ORDERS; id++) {
            String body = "{\"id\":" + id + "}";
            assertEquals(new TableTestServer.Ingested("POST", "/lookup", "application/json", "t", body),
                    byBody.get(body), "lookup " + id);
        }
    }

    @Test
    void aBodyTheFormatCannotReadFailsTheJobNamingTheKeyAndTheUrl() {
        usersTable("garbled", "/garbage/{id}", "");

        Exception e = assertThrows(Exception.class, () -> run("SELECT o.user_id, g.name FROM few_orders AS o "
                + "JOIN garbled FOR SYSTEM_TIME AS OF o.proc AS g ON o.user_id = g.id"));

        String trace = ExceptionUtils.stringifyException(e);
        assertTrue(trace.matches("(?s).*record \"key id=(\\d+)\" \\(GET \\Q" + server.baseUrl()
                + "\\E/garbage/\\1\\): the table's format could not decode the response body \\(21 bytes\\).*"),
                trace);
    }
}
