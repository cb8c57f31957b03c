package dev.strand.flink;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

/** One shape of MiniCluster for every test class: one TaskManager with two slots. */
final class FlinkTestCluster {

    static final int PARALLELISM = 2;

    private FlinkTestCluster() {
    }

    static MiniClusterExtension extension() {
        return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setNumberTaskManagers(1)
                .setNumberSlotsPerTaskManager(PARALLELISM)
                .build());
    }
}
