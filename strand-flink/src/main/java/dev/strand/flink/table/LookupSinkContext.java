package dev.strand.flink.table;

import java.util.Optional;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * A lookup's context dressed as a sink's, for the encoder of a lookup's request body: formats build their
 * encoders from a sink's context, and use only its type information.
 */
record LookupSinkContext(DynamicTableSource.Context source) implements DynamicTableSink.Context {

    @Override
    public boolean isBounded() {
        return false;
    }

    @Override
    public <T> TypeInformation<T> createTypeInformation(DataType type) {
        return source.createTypeInformation(type);
    }

    @Override
    public <T> TypeInformation<T> createTypeInformation(LogicalType type) {
        return source.createTypeInformation(type);
    }

    @Override
    public DynamicTableSink.DataStructureConverter createDataStructureConverter(DataType type) {
        throw new UnsupportedOperationException("a lookup's body encoder converts no external data structures");
    }

    @Override
    public Optional<int[][]> getTargetColumns() {
        return Optional.empty();
    }
}
