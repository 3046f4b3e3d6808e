package io.fleetlake.flink.sinks;

import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.model.LineageColumns;
import io.fleetlake.model.Tables;
import io.fleetlake.model.codec.PositionField;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;

/**
 * Builds the row of {@code fleet.positions} for an {@link IngestedPosition}, by column name in the table's column order
 * (see {@link ColumnMapping}). {@code battery_level} is written when the table has it and null for devices that do not
 * report it (firmware 1.x).
 */
public final class PositionRowConverter implements MapFunction<IngestedPosition, RowData> {
    private static final long serialVersionUID = 1L;

    private final ColumnMapping<IngestedPosition, PositionColumn> columns;

    public PositionRowConverter(Schema schema) {
        this.columns = new ColumnMapping<>(schema, PositionColumn.class, Tables.qualified(Tables.POSITIONS));
    }

    /** The names of every column the pipeline writes. */
    public static List<String> columnNames() {
        return Arrays.stream(PositionColumn.values())
                .map(PositionColumn::columnName)
                .toList();
    }

    @Override
    public RowData map(IngestedPosition position) {
        return columns.toRow(position);
    }

    private enum PositionColumn implements TableColumn<IngestedPosition> {
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
        // Added with position schema v2; tables created before it get the column from the catalog's migration.
        BATTERY_LEVEL(
                PositionField.BATTERY_LEVEL.fieldName(), Type.TypeID.DOUBLE, false, position -> position.position()
                        .batteryLevel()),
        SOURCE_PARTITION(LineageColumns.SOURCE_PARTITION, Type.TypeID.INTEGER, true, IngestedPosition::sourcePartition),
        SOURCE_OFFSET(LineageColumns.SOURCE_OFFSET, Type.TypeID.LONG, true, IngestedPosition::sourceOffset),
        INGEST_TIME(
                LineageColumns.INGEST_TIME,
                Type.TypeID.TIMESTAMP,
                true,
                position -> TimestampData.fromInstant(position.ingestTime()));

        private final String columnName;
        private final Type.TypeID type;
        private final boolean requiredInTable;
        private final Function<IngestedPosition, Object> value;

        PositionColumn(PositionField field, Type.TypeID type, Function<IngestedPosition, Object> value) {
            this(field.fieldName(), type, true, value);
        }

        PositionColumn(
                String columnName,
                Type.TypeID type,
                boolean requiredInTable,
                Function<IngestedPosition, Object> value) {
            this.columnName = columnName;
            this.type = type;
            this.requiredInTable = requiredInTable;
            this.value = value;
        }

        @Override
        public String columnName() {
            return columnName;
        }

        @Override
        public Type.TypeID type() {
            return type;
        }

        @Override
        public boolean requiredInTable() {
            return requiredInTable;
        }

        @Override
        public Object value(IngestedPosition element) {
            return value.apply(element);
        }
    }
}
