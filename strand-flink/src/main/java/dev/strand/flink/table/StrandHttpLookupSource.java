package dev.strand.flink.table;

import dev.strand.flink.HttpSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.format.DecodingFormat;
import org.apache.flink.table.connector.format.EncodingFormat;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.LookupTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsReadingMetadata;
import org.apache.flink.table.connector.source.lookup.AsyncLookupFunctionProvider;
import org.apache.flink.table.connector.source.lookup.PartialCachingAsyncLookupProvider;
import org.apache.flink.table.connector.source.lookup.cache.LookupCache;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * A {@code strand-http} table read by lookup joins: one request per key, answered asynchronously by
 * {@link StrandHttpLookupFunction}. The URL's placeholders must name join keys, which the planner knows only when
 * it plans the join: a placeholder that names another column fails there, with a {@link ValidationException}.
 *
 * <p>Projection push-down: the planner hands over the columns the query uses, and only those are decoded from the
 * body and carried in the rows. Metadata columns ({@link LookupMetadata}: {@code status}, {@code latency-ms},
 * {@code headers}) come from the response that produced the row.
 */
final class StrandHttpLookupSource implements LookupTableSource, SupportsProjectionPushDown,
        SupportsReadingMetadata {

    private final DataType row;
    private final DecodingFormat<DeserializationSchema<RowData>> decoding;
    private final EncodingFormat<SerializationSchema<RowData>> encoding;
    private final UrlTemplate url;
    private final String method;
    private final String contentType;
    private final HttpSettings settings;
    private final int maxRetries;
    private final LookupCache cache;
    private final Set<String> metadataHeaders;
    // What the planner pushed down: the physical columns kept (null: all) and the metadata columns read.
    private int[] projection;
    private List<String> metadataKeys = List.of();

    StrandHttpLookupSource(DataType row, DecodingFormat<DeserializationSchema<RowData>> decoding,
            EncodingFormat<SerializationSchema<RowData>> encoding, UrlTemplate url, String method,
            String contentType, HttpSettings settings, int maxRetries, LookupCache cache,
            Set<String> metadataHeaders) {
        this.row = row;
        this.decoding = decoding;
        this.encoding = encoding;
        this.url = url;
        this.method = method;
        this.contentType = contentType;
        this.settings = settings;
        this.maxRetries = maxRetries;
        this.cache = cache;
        this.metadataHeaders = metadataHeaders;
    }

    @Override
    public boolean supportsNestedProjection() {
        return false;
    }

    @Override
    public void applyProjection(int[][] projectedFields, DataType producedDataType) {
        int[] top = new int[projectedFields.length];
        for (int i = 0; i < top.length; i++) {
            top[i] = projectedFields[i][0];
        }
        projection = top;
    }

    @Override
    public Map<String, DataType> listReadableMetadata() {
        return LookupMetadata.readable();
    }

    @Override
    public void applyReadableMetadata(List<String> metadataKeys, DataType producedDataType) {
        this.metadataKeys = List.copyOf(metadataKeys);
    }

    /** The physical columns the rows carry: the projection's, or all. */
    private DataType physical() {
        if (projection == null) {
            return row;
        }
        List<DataTypes.Field> fields = DataType.getFields(row);
        List<DataTypes.Field> kept = new ArrayList<>(projection.length);
        for (int i : projection) {
            kept.add(fields.get(i));
        }
        return DataTypes.ROW(kept).notNull();
    }

    @Override
    public LookupRuntimeProvider getLookupRuntimeProvider(LookupContext context) {
        DataType physical = physical();
        List<String> columns = DataType.getFieldNames(physical);
        List<DataType> types = DataType.getFieldDataTypes(physical);
        int[][] keys = context.getKeys();
        String[] names = new String[keys.length];
        LogicalType[] keyTypes = new LogicalType[keys.length];
        int[] keyColumns = new int[keys.length];
        int[] inKeyRow = new int[keys.length];
        List<DataTypes.Field> keyFields = new ArrayList<>();
        for (int i = 0; i < keys.length; i++) {
            if (keys[i][0] >= columns.size()) {
                throw new ValidationException("A strand-http table cannot be looked up by a metadata column ('"
                        + metadataKeys.get(keys[i][0] - columns.size()) + "').");
            }
            if (keys[i].length != 1) {
                throw new ValidationException("A strand-http table is looked up by top-level columns only, not by "
                        + "a nested field of column '" + columns.get(keys[i][0]) + "'.");
            }
            keyColumns[i] = keys[i][0];
            inKeyRow[i] = i;
            names[i] = columns.get(keyColumns[i]);
            keyTypes[i] = types.get(keyColumns[i]).getLogicalType();
            keyFields.add(DataTypes.FIELD(names[i], types.get(keyColumns[i])));
        }
        List<String> keyNames = List.of(names);
        for (String placeholder : url.columns()) {
            if (!keyNames.contains(placeholder)) {
                throw StrandHttpTableFactory.invalidUrl(url.toString(), "the placeholder {" + placeholder
                        + "} is not a key of this lookup join; its keys are " + keyNames
                        + " (a lookup's URL can only hold the columns the join's ON clause equates)");
            }
        }
        SerializationSchema<RowData> body = null;
        if (encoding != null) {
            body = encoding.createRuntimeEncoder(new LookupSinkContext(context), DataTypes.ROW(keyFields));
        }
        LookupMetadata[] metadata = metadataKeys.stream().map(LookupMetadata::of).toArray(LookupMetadata[]::new);
        StrandHttpLookupFunction function = new StrandHttpLookupFunction(settings, url, method,
                new UrlValues(names, keyTypes, inKeyRow), keyColumns, keyTypes, physical.getLogicalType(),
                decoding.createRuntimeDecoder(context, physical), body, contentType, maxRetries, metadata,
                metadataHeaders);
        return cache == null ? AsyncLookupFunctionProvider.of(function)
                : PartialCachingAsyncLookupProvider.of(function, cache);
    }

    @Override
    public DynamicTableSource copy() {
        StrandHttpLookupSource copy = new StrandHttpLookupSource(row, decoding, encoding, url, method, contentType,
                settings, maxRetries, cache, metadataHeaders);
        copy.projection = projection;
        copy.metadataKeys = metadataKeys;
        return copy;
    }

    @Override
    public String asSummaryString() {
        return "strand-http lookup " + method + " " + url;
    }
}
