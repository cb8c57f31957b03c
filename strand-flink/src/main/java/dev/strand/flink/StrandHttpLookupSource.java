package dev.strand.flink;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.format.DecodingFormat;
import org.apache.flink.table.connector.format.EncodingFormat;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.LookupTableSource;
import org.apache.flink.table.connector.source.lookup.AsyncLookupFunctionProvider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;

/** The async lookup source behind {@code 'connector' = 'strand-http'}; see {@link StrandHttpTableFactory}. */
final class StrandHttpLookupSource implements LookupTableSource {
    private final HttpSettings settings;
    private final StrandHttpTableFactory.UrlTemplate template;
    private final String method;
    private final DecodingFormat<DeserializationSchema<RowData>> format;
    private final EncodingFormat<SerializationSchema<RowData>> keyFormat;
    private final String contentType;
    private final DataType physical;

    StrandHttpLookupSource(HttpSettings settings, StrandHttpTableFactory.UrlTemplate template, String method,
            DecodingFormat<DeserializationSchema<RowData>> format,
            EncodingFormat<SerializationSchema<RowData>> keyFormat, String contentType, DataType physical) {
        this.settings = settings;
        this.template = template;
        this.method = method;
        this.format = format;
        this.keyFormat = keyFormat;
        this.contentType = contentType;
        this.physical = physical;
    }

    @Override
    public LookupRuntimeProvider getLookupRuntimeProvider(LookupContext context) {
        List<String> columns = DataType.getFieldNames(physical);
        List<String> keys = new ArrayList<>();
        List<LogicalType> keyTypes = new ArrayList<>();
        for (int[] path : context.getKeys()) {
            if (path.length != 1) {
                throw new ValidationException("strand-http looks up by top-level columns only");
            }
            keys.add(columns.get(path[0]));
            keyTypes.add(DataType.getFieldDataTypes(physical).get(path[0]).getLogicalType());
        }
        for (String placeholder : template.placeholders()) {
            if (!keys.contains(placeholder)) {
                throw new ValidationException("'url' = '" + template.raw() + "' needs {" + placeholder
                        + "}, but the lookup join's keys are " + keys + ": join on " + placeholder + " too");
            }
        }
        DeserializationSchema<RowData> decoder = format.createRuntimeDecoder(context, physical);
        SerializationSchema<RowData> encoder = null;
        if (keyFormat != null) {
            List<DataTypes.Field> fields = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                fields.add(DataTypes.FIELD(keys.get(i), DataType.getFieldDataTypes(physical)
                        .get(columns.indexOf(keys.get(i)))));
            }
            encoder = keyFormat.createRuntimeEncoder(new KeyEncoderContext(context), DataTypes.ROW(fields).notNull());
        }
        return AsyncLookupFunctionProvider.of(new StrandHttpLookupFunction(settings, template, method, keys, keyTypes,
                decoder, encoder, contentType));
    }

    @Override
    public DynamicTableSource copy() {
        return new StrandHttpLookupSource(settings, template, method, format, keyFormat, contentType, physical);
    }

    /**
     * Formats create encoders for sinks; this hands the lookup's type information to one that encodes the key row.
     * Formats that convert to external data structures (none of Flink's row formats does) are not supported.
     */
    private record KeyEncoderContext(LookupContext lookup) implements DynamicTableSink.Context {
        @Override
        public boolean isBounded() {
            return false;
        }

        @Override
        public <T> TypeInformation<T> createTypeInformation(DataType type) {
            return lookup.createTypeInformation(type);
        }

        @Override
        public <T> TypeInformation<T> createTypeInformation(LogicalType type) {
            return lookup.createTypeInformation(type);
        }

        @Override
        public DynamicTableSink.DataStructureConverter createDataStructureConverter(DataType type) {
            throw new UnsupportedOperationException("strand-http encodes lookup keys with row formats only");
        }

        @Override
        public Optional<int[][]> getTargetColumns() {
            return Optional.empty();
        }
    }

    @Override
    public String asSummaryString() {
        return "strand-http(" + method + " " + template.raw() + ")";
    }
}
