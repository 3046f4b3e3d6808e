package io.fleetlake.flink.sinks;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types.NestedField;

/**
 * Builds Flink {@link RowData} in the column order of an Iceberg table's schema, matching the pipeline's columns by
 * name. The table owner may reorder columns or add optional ones without a pipeline change; a column the table must
 * have but lacks, a required table column the pipeline cannot fill, or a type mismatch fails at construction, before
 * any data is written.
 *
 * @param <T> the element a row is built from
 * @param <C> the enum of the columns the pipeline writes
 */
final class ColumnMapping<T, C extends Enum<C> & TableColumn<T>> implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The pipeline's column at each table position, null where the table has a column the pipeline leaves empty. */
    private final C[] columnsInTableOrder;

    ColumnMapping(Schema schema, Class<C> columnType, String tableName) {
        requireNonNull(schema, "schema is null");
        requireNonNull(columnType, "columnType is null");
        requireNonNull(tableName, "tableName is null");
        List<NestedField> fields = schema.columns();
        @SuppressWarnings("unchecked")
        C[] columns = (C[]) Array.newInstance(columnType, fields.size());
        Set<C> missing = EnumSet.allOf(columnType);
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            NestedField field = fields.get(i);
            C column = named(columnType, field.name());
            if (column == null) {
                if (field.isRequired()) {
                    problems.add("required column " + field.name() + " is not written by the pipeline");
                }
                continue;
            }
            if (field.type().typeId() != column.type()) {
                problems.add("column " + field.name() + " has type " + field.type() + ", expected " + column.type());
            }
            columns[i] = column;
            missing.remove(column);
        }
        missing.stream()
                .filter(TableColumn::requiredInTable)
                .forEach(column -> problems.add("column " + column.columnName() + " is missing"));
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("The Iceberg table " + tableName
                    + " does not match what the pipeline writes: " + String.join("; ", problems) + ". Table schema: "
                    + schema.asStruct());
        }
        this.columnsInTableOrder = columns;
    }

    RowData toRow(T element) {
        GenericRowData row = new GenericRowData(columnsInTableOrder.length);
        for (int i = 0; i < columnsInTableOrder.length; i++) {
            C column = columnsInTableOrder[i];
            if (column != null) {
                row.setField(i, column.value(element));
            }
        }
        return row;
    }

    private static <C extends Enum<C> & TableColumn<?>> C named(Class<C> columnType, String name) {
        for (C column : columnType.getEnumConstants()) {
            if (column.columnName().equals(name)) {
                return column;
            }
        }
        return null;
    }
}
