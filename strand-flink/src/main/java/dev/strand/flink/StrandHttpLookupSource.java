package dev.strand.flink;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.format.DecodingFormat;
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
    private final DataType physical;

    StrandHttpLookupSource(HttpSettings settings, StrandHttpTableFactory.UrlTemplate template, String method,
            DecodingFormat<DeserializationSchema<RowData>> format, DataType physical) {
        this.settings = settings;
        this.template = template;
        this.method = method;
        this.format = format;
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
        return AsyncLookupFunctionProvider.of(new StrandHttpLookupFunction(settings, template, method, keys, keyTypes,
                decoder));
    }

    @Override
    public DynamicTableSource copy() {
        return new StrandHttpLookupSource(settings, template, method, format, physical);
    }

    @Override
    public String asSummaryString() {
        return "strand-http(" + method + " " + template.raw() + ")";
    }
}
