package dev.strand.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code 'connector' = 'strand-http'} from SQL at parallelism 2: the lookup source in lookup joins, and the sink
 * in {@code INSERT INTO}.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@ExtendWith(NettyLeakDetectorExtension.class)
class StrandHttpTableTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = FlinkTestCluster.extension();

    private static StreamTableEnvironment tableEnv(List<String> ids) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(FlinkTestCluster.PARALLELISM);
        StreamTableEnvironment t = StreamTableEnvironment.create(env);
        Table orders = t.fromDataStream(env.fromData(ids),
                Schema.newBuilder().columnByExpression("proc_time", "PROCTIME()").build()).as("id", "proc_time");
        t.createTemporaryView("orders", orders);
        return t;
    }

    private static void usersTable(StreamTableEnvironment t, String url) {
        t.executeSql("CREATE TABLE users (id STRING, name STRING) WITH ("
                + " 'connector' = 'strand-http', 'url' = '" + url + "', 'format' = 'json',"
                + " 'read.timeout' = '10 s', 'pool.size' = '20', 'headers' = 'Accept:application/json')");
    }

    private static List<Row> collect(Table table) throws Exception {
        List<Row> out = new ArrayList<>();
        try (CloseableIterator<Row> it = table.execute().collect()) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    @Test
    void aLookupJoinEnrichesEveryRowAndA404IsNoRow() throws Exception {
        List<String> ids = new ArrayList<>(IntStream.range(0, 200).mapToObj(i -> "u" + i).toList());
        ids.add("missing-1");
        try (ScriptedServer server = ScriptedServer.start(0)) {
            StreamTableEnvironment t = tableEnv(ids);
            usersTable(t, server.baseUrl() + "/users/{id}");

            List<Row> inner = collect(t.sqlQuery("SELECT o.id, u.name FROM orders AS o"
                    + " JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.id = u.id"));
            List<Row> left = collect(t.sqlQuery("SELECT o.id, u.name FROM orders AS o"
                    + " LEFT JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.id = u.id"));

            assertEquals(IntStream.range(0, 200).mapToObj(i -> "u" + i + "|user-u" + i).sorted().toList(),
                    inner.stream().map(r -> r.getField(0) + "|" + r.getField(1)).sorted().toList());
            assertEquals(201, left.size());
            assertTrue(left.stream().anyMatch(r -> "missing-1".equals(r.getField(0)) && r.getField(1) == null),
                    "a 404 is no row: " + left);
            assertEquals(2, server.calls("user:u7"), "one lookup per row and query (no cache)");
        }
    }

    @Test
    void aPostLookupSendsTheKeysAsAJsonBody() throws Exception {
        List<String> ids = IntStream.range(0, 50).mapToObj(i -> "p" + i).toList();
        try (ScriptedServer server = ScriptedServer.start(0)) {
            StreamTableEnvironment t = tableEnv(ids);
            t.executeSql("CREATE TABLE users (id STRING, name STRING) WITH ("
                    + " 'connector' = 'strand-http', 'url' = '" + server.baseUrl() + "/lookup', 'format' = 'json',"
                    + " 'method' = 'POST')");

            List<Row> got = collect(t.sqlQuery("SELECT o.id, u.name FROM orders AS o"
                    + " JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.id = u.id"));

            assertEquals(ids.stream().map(id -> id + "|posted-" + id).sorted().toList(),
                    got.stream().map(r -> r.getField(0) + "|" + r.getField(1)).sorted().toList());
            assertEquals(ids.stream().map(id -> "POST application/json {\"id\":\"" + id + "\"}").sorted().toList(),
                    server.bodies().stream().sorted().toList());
        }
    }

    @Test
    void aBodyTheFormatCannotDecodeFailsTheJobNamingTheKey() {
        try (ScriptedServer server = ScriptedServer.start(0)) {
            StreamTableEnvironment t = tableEnv(List.of("garbage-7"));
            usersTable(t, server.baseUrl() + "/users/{id}");

            Exception e = assertThrows(Exception.class, () -> collect(t.sqlQuery("SELECT o.id, u.name FROM orders o"
                    + " JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.id = u.id")));

            assertTrue(Jobs.causeMentions(e, "id=garbage-7") && Jobs.causeMentions(e, "could not decode"),
                    () -> ExceptionUtils.stringifyException(e));
        }
    }

    @Test
    void aMalformedUrlTemplateIsAClearError() {
        StreamTableEnvironment t = tableEnv(List.of("u1"));
        usersTable(t, "http://127.0.0.1:1/users/{user_id}");

        Exception e = assertThrows(ValidationException.class, () -> t.sqlQuery("SELECT o.id, u.name FROM orders o"
                + " JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.id = u.id").execute());

        assertTrue(Jobs.causeMentions(e, "placeholder {user_id} names no column of the table [id, name]"),
                () -> ExceptionUtils.stringifyException(e));
    }

    @Test
    void insertIntoPostsEveryRowAsJson() throws Exception {
        try (ScriptedServer server = ScriptedServer.start(0)) {
            StreamTableEnvironment t = tableEnv(IntStream.range(0, 300).mapToObj(i -> "u" + i).toList());
            t.executeSql("CREATE TABLE collector (id STRING, name STRING) WITH ("
                    + " 'connector' = 'strand-http', 'url' = '" + server.baseUrl() + "/ingest', 'format' = 'json')");

            t.executeSql("INSERT INTO collector SELECT id, CONCAT('n-', id) FROM orders").await(120, TimeUnit.SECONDS);

            assertEquals(IntStream.range(0, 300).mapToObj(i -> "{\"id\":\"u" + i + "\",\"name\":\"n-u" + i + "\"}")
                    .sorted().toList(), server.bodies().stream().sorted().toList());
        }
    }

    @Test
    void aSinkUrlWithPlaceholdersIsAClearError() {
        StreamTableEnvironment t = tableEnv(List.of("u1"));
        t.executeSql("CREATE TABLE collector (id STRING) WITH ("
                + " 'connector' = 'strand-http', 'url' = 'http://127.0.0.1:1/ingest/{id}', 'format' = 'json')");

        Exception e = assertThrows(ValidationException.class,
                () -> t.executeSql("INSERT INTO collector SELECT id FROM orders"));

        assertTrue(Jobs.causeMentions(e, "sends every row to one URL, without {placeholders}"),
                () -> ExceptionUtils.stringifyException(e));
    }
}
