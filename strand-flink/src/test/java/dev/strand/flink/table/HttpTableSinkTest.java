package dev.strand.flink.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.testkit.NettyLeakDetectorExtension;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code INSERT INTO} a {@code strand-http} table at parallelism 2, every row counted on the server. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ExtendWith(NettyLeakDetectorExtension.class)
class HttpTableSinkTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = TableTestCluster.extension();

    private static final int ROWS = 200;

    @Test
    void everyInsertedRowArrivesOnceAsItsOwnRequest() throws Exception {
        try (TableTestServer server = new TableTestServer(0)) {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(TableTestCluster.PARALLELISM);
            StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
            tEnv.createTemporaryView("numbers", tEnv.fromDataStream(env.fromSequence(1, ROWS),
                    Schema.newBuilder().column("f0", DataTypes.BIGINT()).build()));
            tEnv.executeSql("CREATE TABLE ingest (id BIGINT, name STRING, big BOOLEAN) WITH ("
                    + "'connector' = 'strand-http', "
                    + "'url' = '" + server.baseUrl() + "/ingest/{id}', "
                    + "'method' = 'put', "
                    + "'format' = 'json', "
                    + "'headers.X-Token' = 'secret', "
                    + "'sink.batch.max-size' = '10', "
                    + "'pool.size' = '20')");

            tEnv.executeSql("INSERT INTO ingest SELECT f0, CONCAT('name-', CAST(f0 AS STRING)), f0 > 100 "
                    + "FROM numbers").await(90, TimeUnit.SECONDS);

            List<TableTestServer.Ingested> got = server.ingested();
            assertEquals(ROWS, got.size(), "one request per row");
            Map<String, TableTestServer.Ingested> byPath = new TreeMap<>();
            got.forEach(i -> byPath.put(i.path(), i));
            for (long id = 1; id <= ROWS; id++) {
                assertEquals(new TableTestServer.Ingested("PUT", "/ingest/" + id, "application/json", "secret",
                                "{\"id\":" + id + ",\"name\":\"name-" + id + "\",\"big\":" + (id > 100) + "}"),
                        byPath.get("/ingest/" + id), "row " + id);
            }
        }
    }
}
