package dev.strand.flink.table;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

/** The MiniCluster of the SQL tests (one TaskManager, two slots) and a streaming table environment on it. */
final class TableTestCluster {

    static final int PARALLELISM = 2;

    private TableTestCluster() {
    }

    static MiniClusterExtension extension() {
        return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setNumberTaskManagers(1)
                .setNumberSlotsPerTaskManager(PARALLELISM)
                .build());
    }

    /** A streaming table environment at parallelism 2, on the extension's MiniCluster. */
    static StreamTableEnvironment tableEnv() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(PARALLELISM);
        return StreamTableEnvironment.create(env);
    }

    /** Whether {@code t} or one of its causes has a message containing {@code text}. */
    static boolean causeMentions(Throwable t, String text) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c.getMessage() != null && c.getMessage().contains(text)) {
                return true;
            }
        }
        return false;
    }
}
