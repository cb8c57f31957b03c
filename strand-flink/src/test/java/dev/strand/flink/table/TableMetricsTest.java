package dev.strand.flink.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.flink.ErrorKind;
import dev.strand.flink.MetricsCapture;
import dev.strand.testkit.NettyLeakDetectorExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The SQL connector's operators register the same {@code strand.*} set as the DataStream ones, read back through a
 * Flink metric reporter ({@link MetricsCapture}): the lookup join's function and the {@code INSERT INTO} sink.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ExtendWith(NettyLeakDetectorExtension.class)
class TableMetricsTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setConfiguration(MetricsCapture.configure(new Configuration()))
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(TableTestCluster.PARALLELISM)
            .build());

    private static Map<String, Long> values(String job, String operator) {
        Map<String, Long> out = new TreeMap<>();
        for (MetricsCapture.Reported r : MetricsCapture.of(job, operator)) {
            out.merge(r.name(), r.value(), Long::sum);
        }
        return out;
    }

    /** The whole set, every error and timeout count 0. */
    private static Map<String, Long> clean(long requests) {
        Map<String, Long> m = new TreeMap<>();
        m.put("strand.requests", requests);
        m.put("strand.latencyMs", requests);
        m.put("strand.inFlight", 0L);
        m.put("strand.retriesScheduled", 0L);
        m.put("strand.timeoutsDropped", 0L);
        m.put("strand.timeoutsFallback", 0L);
        for (ErrorKind k : ErrorKind.values()) {
            m.put("strand.errors." + k.metricName(), 0L);
        }
        return m;
    }

    private static StreamTableEnvironment tableEnv(StreamExecutionEnvironment env, String job) {
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.getConfig().set("pipeline.name", job);
        tEnv.createTemporaryView("numbers", tEnv.fromDataStream(env.fromSequence(1, 40),
                Schema.newBuilder().column("f0", DataTypes.BIGINT()).columnByExpression("proc", "PROCTIME()")
                        .build()));
        return tEnv;
    }

    @Test
    void aLookupJoinReportsARequestPerKeyAndA404IsNoError() throws Exception {
        try (TableTestServer server = new TableTestServer(30)) {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(TableTestCluster.PARALLELISM);
            StreamTableEnvironment tEnv = tableEnv(env, "sql-lookup-metrics");
            tEnv.executeSql("CREATE TABLE users (id BIGINT, name STRING, score INT) WITH ('connector' = 'strand-http',"
                    + " 'url' = '" + server.baseUrl() + "/users/{id}', 'format' = 'json')");
            List<Row> rows = new ArrayList<>();
            try (CloseableIterator<Row> it = tEnv.executeSql("SELECT n.f0, u.name FROM numbers AS n "
                    + "LEFT JOIN users FOR SYSTEM_TIME AS OF n.proc AS u ON n.f0 = u.id").collect()) {
                it.forEachRemaining(rows::add);
            }

            assertEquals(40, rows.size());
            // 30 known users and 10 unknown (404: no row, not an error): 40 requests, nothing failed.
            assertEquals(clean(40), values("sql-lookup-metrics", "LookupJoin"));
        }
    }

    @Test
    void anInsertIntoReportsARequestPerRow() throws Exception {
        try (TableTestServer server = new TableTestServer(0)) {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(TableTestCluster.PARALLELISM);
            StreamTableEnvironment tEnv = tableEnv(env, "sql-sink-metrics");
            tEnv.executeSql("CREATE TABLE ingest (id BIGINT) WITH ('connector' = 'strand-http',"
                    + " 'url' = '" + server.baseUrl() + "/ingest/{id}', 'format' = 'json')");
            tEnv.executeSql("INSERT INTO ingest SELECT f0 FROM numbers").await(90, TimeUnit.SECONDS);

            assertEquals(40, server.ingested().size());
            assertEquals(clean(40), values("sql-sink-metrics", "Writer"));
        }
    }
}
