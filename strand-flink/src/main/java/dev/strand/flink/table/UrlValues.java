package dev.strand.flink.table;

import java.io.Serializable;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.EnumSet;
import java.util.Set;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * Reads the columns a {@link UrlTemplate} names from a row and spells each as text for the URL: strings as they
 * are, numbers and booleans as SQL casts them to {@code STRING}, dates and times in ISO-8601.
 */
final class UrlValues implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The types a placeholder's column may have. */
    static final Set<LogicalTypeRoot> SUPPORTED = EnumSet.of(LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR,
            LogicalTypeRoot.BOOLEAN, LogicalTypeRoot.TINYINT, LogicalTypeRoot.SMALLINT, LogicalTypeRoot.INTEGER,
            LogicalTypeRoot.BIGINT, LogicalTypeRoot.FLOAT, LogicalTypeRoot.DOUBLE, LogicalTypeRoot.DECIMAL,
            LogicalTypeRoot.DATE, LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE, LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE);

    private final String[] names;
    private final LogicalType[] types;
    private final int[] positions;
    private transient RowData.FieldGetter[] getters;

    /**
     * @param names the placeholders' column names
     * @param types their types
     * @param positions where each is in the rows given to {@link #read}
     */
    UrlValues(String[] names, LogicalType[] types, int[] positions) {
        this.names = names;
        this.types = types;
        this.positions = positions;
    }

    /**
     * @param row a row
     * @return the text of each named column, in the order of the names; a null value stays null
     */
    String[] read(RowData row) {
        if (getters == null) {
            RowData.FieldGetter[] g = new RowData.FieldGetter[names.length];
            for (int i = 0; i < g.length; i++) {
                g[i] = RowData.createFieldGetter(types[i], positions[i]);
            }
            getters = g;
        }
        String[] out = new String[names.length];
        for (int i = 0; i < out.length; i++) {
            Object v = getters[i].getFieldOrNull(row);
            out[i] = v == null ? null : text(types[i].getTypeRoot(), v);
        }
        return out;
    }

    /** @return the value of column {@code name} in {@code values} as {@link #read} returned them */
    String valueOf(String[] values, String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return values[i];
            }
        }
        throw new IllegalArgumentException("no column " + name);
    }

    /** @return {@code "id=17, lang=en"}: the values for an error message */
    String describe(String[] values) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < names.length; i++) {
            b.append(i == 0 ? "" : ", ").append(names[i]).append('=').append(values[i]);
        }
        return b.toString();
    }

    private static String text(LogicalTypeRoot root, Object v) {
        return switch (root) {
            case DATE -> LocalDate.ofEpochDay((Integer) v).toString();
            case TIME_WITHOUT_TIME_ZONE -> LocalTime.ofNanoOfDay((Integer) v * 1_000_000L).toString();
            default -> v.toString();
        };
    }
}
