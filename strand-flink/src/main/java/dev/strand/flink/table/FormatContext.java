package dev.strand.flink.table;

import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;

/** What a format's encoder or decoder is opened with. */
record FormatContext(MetricGroup metrics, ClassLoader classLoader)
        implements DeserializationSchema.InitializationContext, SerializationSchema.InitializationContext {

    @Override
    public MetricGroup getMetricGroup() {
        return metrics;
    }

    @Override
    public UserCodeClassLoader getUserCodeClassLoader() {
        return SimpleUserCodeClassLoader.create(classLoader);
    }
}
