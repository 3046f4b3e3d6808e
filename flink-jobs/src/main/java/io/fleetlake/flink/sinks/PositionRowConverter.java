package io.fleetlake.flink.sinks;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.model.LineageColumns;
import io.fleetlake.model.codec.PositionField;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types.NestedField;

/**
 * Builds the Flink {@link RowData} of an {@link IngestedPosition} in the column order of the Iceberg table's schema,
 * matching columns by name. The table owner may reorder columns or add optional ones without a pipeline change; a
 * column the pipeline knows but the table lacks, a required column the pipeline cannot fill, or a type mismatch fails
 * at construction, before any data is written.
 */
public final class PositionRowConverter implements MapFunction<IngestedPosition, RowData> {
    private static final long serialVersionUID = 1L;

    /** Column of every table position the pipeline fills, null where an optional column is left empty. */
    private final PositionColumn[] columnsInTableOrder;

    public PositionRowConverter(Schema schema) {
        requireNonNull(schema, "schema is null");
        List<NestedField> fields = schema.columns();
        this.columnsInTableOrder = new PositionColumn[fields.size()];
        Set<PositionColumn> missing = EnumSet.allOf(PositionColumn.class);
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            NestedField field = fields.get(i);
            PositionColumn column = PositionColumn.named(field.name());
            if (column == null) {
                if (field.isRequired()) {
                    problems.add("required column " + field.name() + " is not written by the pipeline");
                }
                continue;
            }
            if (field.type().typeId() != column.type) {
                problems.add("column " + field.name() + " has type " + field.type() + ", expected " + column.type);
            }
            columnsInTableOrder[i] = column;
            missing.remove(column);
        }
        missing.forEach(column -> problems.add("column " + column.columnName + " is missing"));
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("The Iceberg positions table does not match what the pipeline writes: "
                    + String.join("; ", problems) + ". Table schema: " + schema.asStruct());
        }
    }

    /** The names of every column the pipeline writes. */
    public static List<String> columnNames() {
        return Arrays.stream(PositionColumn.values())
                .map(column -> column.columnName)
                .collect(Collectors.toUnmodifiableList());
    }

    @Override
    public RowData map(IngestedPosition position) {
        GenericRowData row = new GenericRowData(columnsInTableOrder.length);
        for (int i = 0; i < columnsInTableOrder.length; i++) {
            PositionColumn column = columnsInTableOrder[i];
            if (column != null) {
                row.setField(i, column.value.apply(position));
            }
        }
        return row;
    }

    /** Each column the pipeline writes, its Iceberg type and its value in Flink's internal representation. */
    private enum PositionColumn {
        VEHICLE_ID(
                PositionField.VEHICLE_ID,
                Type.TypeID.STRING,
                position -> StringData.fromString(position.position().vehicleId())),
        EVENT_TIME(
                PositionField.EVENT_TIME,
                Type.TypeID.TIMESTAMP,
                position -> TimestampData.fromInstant(position.position().eventTime())),
        LATITUDE(PositionField.LATITUDE, Type.TypeID.DOUBLE, position -> position.position()
                .latitude()),
        LONGITUDE(PositionField.LONGITUDE, Type.TypeID.DOUBLE, position -> position.position()
                .longitude()),
        SPEED_KMH(PositionField.SPEED_KMH, Type.TypeID.DOUBLE, position -> position.position()
                .speedKmh()),
        HEADING_DEG(PositionField.HEADING_DEG, Type.TypeID.DOUBLE, position -> position.position()
                .headingDeg()),
        ALTITUDE_M(PositionField.ALTITUDE_M, Type.TypeID.DOUBLE, position -> position.position()
                .altitudeM()),
        ACCURACY_M(PositionField.ACCURACY_M, Type.TypeID.DOUBLE, position -> position.position()
                .accuracyM()),
        SATELLITES(PositionField.SATELLITES, Type.TypeID.INTEGER, position -> position.position()
                .satellites()),
        SOURCE_PARTITION(LineageColumns.SOURCE_PARTITION, Type.TypeID.INTEGER, IngestedPosition::sourcePartition),
        SOURCE_OFFSET(LineageColumns.SOURCE_OFFSET, Type.TypeID.LONG, IngestedPosition::sourceOffset),
        INGEST_TIME(
                LineageColumns.INGEST_TIME,
                Type.TypeID.TIMESTAMP,
                position -> TimestampData.fromInstant(position.ingestTime()));

        private final String columnName;
        private final Type.TypeID type;
        private final Function<IngestedPosition, Object> value;

        PositionColumn(PositionField field, Type.TypeID type, Function<IngestedPosition, Object> value) {
            this(field.fieldName(), type, value);
        }

        PositionColumn(String columnName, Type.TypeID type, Function<IngestedPosition, Object> value) {
            this.columnName = columnName;
            this.type = type;
            this.value = value;
        }

        static PositionColumn named(String name) {
            for (PositionColumn column : values()) {
                if (column.columnName.equals(name)) {
                    return column;
                }
            }
            return null;
        }
    }
}
