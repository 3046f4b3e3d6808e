package io.fleetlake.flink.sinks;

import io.fleetlake.flink.records.VehicleMinute;
import io.fleetlake.model.Tables;
import io.fleetlake.model.VehicleMinuteColumns;
import java.time.Instant;
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
 * Builds the row of {@code fleet.vehicle_minutes} for a {@link VehicleMinute}, by column name in the table's column
 * order (see {@link ColumnMapping}).
 */
public final class VehicleMinuteRowConverter implements MapFunction<VehicleMinute, RowData> {
    private static final long serialVersionUID = 1L;

    private final ColumnMapping<VehicleMinute, MinuteColumn> columns;

    public VehicleMinuteRowConverter(Schema schema) {
        this.columns = new ColumnMapping<>(schema, MinuteColumn.class, Tables.qualified(Tables.VEHICLE_MINUTES));
    }

    /** The names of every column the pipeline writes. */
    public static List<String> columnNames() {
        return Arrays.stream(MinuteColumn.values())
                .map(MinuteColumn::columnName)
                .toList();
    }

    @Override
    public RowData map(VehicleMinute minute) {
        return columns.toRow(minute);
    }

    private enum MinuteColumn implements TableColumn<VehicleMinute> {
        VEHICLE_ID(
                VehicleMinuteColumns.VEHICLE_ID,
                Type.TypeID.STRING,
                minute -> StringData.fromString(minute.vehicleId())),
        WINDOW_START(
                VehicleMinuteColumns.WINDOW_START, Type.TypeID.TIMESTAMP, minute -> timestamp(minute.windowStart())),
        WINDOW_END(VehicleMinuteColumns.WINDOW_END, Type.TypeID.TIMESTAMP, minute -> timestamp(minute.windowEnd())),
        POSITIONS(VehicleMinuteColumns.POSITIONS, Type.TypeID.INTEGER, minute -> minute.aggregate()
                .positions()),
        DISTANCE_M(VehicleMinuteColumns.DISTANCE_M, Type.TypeID.DOUBLE, minute -> minute.aggregate()
                .distanceM()),
        AVG_SPEED_KMH(VehicleMinuteColumns.AVG_SPEED_KMH, Type.TypeID.DOUBLE, minute -> minute.aggregate()
                .avgSpeedKmh()),
        MAX_SPEED_KMH(VehicleMinuteColumns.MAX_SPEED_KMH, Type.TypeID.DOUBLE, minute -> minute.aggregate()
                .maxSpeedKmh()),
        SECONDS_STOPPED(VehicleMinuteColumns.SECONDS_STOPPED, Type.TypeID.DOUBLE, minute -> minute.aggregate()
                .secondsStopped()),
        COMPUTED_AT(VehicleMinuteColumns.COMPUTED_AT, Type.TypeID.TIMESTAMP, minute -> timestamp(minute.computedAt()));

        private final String columnName;
        private final Type.TypeID type;
        private final Function<VehicleMinute, Object> value;

        MinuteColumn(String columnName, Type.TypeID type, Function<VehicleMinute, Object> value) {
            this.columnName = columnName;
            this.type = type;
            this.value = value;
        }

        private static TimestampData timestamp(Instant instant) {
            return TimestampData.fromInstant(instant);
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
            return true;
        }

        @Override
        public Object value(VehicleMinute element) {
            return value.apply(element);
        }
    }
}
