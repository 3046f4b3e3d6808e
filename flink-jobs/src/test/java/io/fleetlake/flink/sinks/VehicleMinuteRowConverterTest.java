package io.fleetlake.flink.sinks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.flink.records.VehicleMinute;
import io.fleetlake.flink.windows.MinuteAggregate;
import io.fleetlake.model.VehicleMinuteColumns;
import java.time.Instant;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.types.Types.NestedField;
import org.junit.jupiter.api.Test;

class VehicleMinuteRowConverterTest {
    private static final Instant START = Instant.parse("2026-11-29T18:00:00Z");
    private static final Instant COMPUTED_AT = Instant.parse("2026-11-29T18:01:31.5Z");

    /** The catalog's columns, in another order. */
    private static final Schema SHUFFLED = new Schema(
            NestedField.required(9, VehicleMinuteColumns.COMPUTED_AT, Types.TimestampType.withZone()),
            NestedField.required(4, VehicleMinuteColumns.POSITIONS, Types.IntegerType.get()),
            NestedField.required(1, VehicleMinuteColumns.VEHICLE_ID, Types.StringType.get()),
            NestedField.required(2, VehicleMinuteColumns.WINDOW_START, Types.TimestampType.withZone()),
            NestedField.required(3, VehicleMinuteColumns.WINDOW_END, Types.TimestampType.withZone()),
            NestedField.required(5, VehicleMinuteColumns.DISTANCE_M, Types.DoubleType.get()),
            NestedField.required(6, VehicleMinuteColumns.AVG_SPEED_KMH, Types.DoubleType.get()),
            NestedField.required(7, VehicleMinuteColumns.MAX_SPEED_KMH, Types.DoubleType.get()),
            NestedField.required(8, VehicleMinuteColumns.SECONDS_STOPPED, Types.DoubleType.get()));

    @Test
    void fillsEveryColumnByName() {
        VehicleMinute minute = new VehicleMinute(
                "VH-0001", START, START.plusSeconds(60), new MinuteAggregate(12, 640.5, 38.4, 51.0, 7.25), COMPUTED_AT);

        RowData row = new VehicleMinuteRowConverter(SHUFFLED).map(minute);

        assertThat(row.getTimestamp(0, 6)).isEqualTo(TimestampData.fromInstant(COMPUTED_AT));
        assertThat(row.getInt(1)).isEqualTo(12);
        assertThat(row.getString(2)).isEqualTo(StringData.fromString("VH-0001"));
        assertThat(row.getTimestamp(3, 6)).isEqualTo(TimestampData.fromInstant(START));
        assertThat(row.getTimestamp(4, 6)).isEqualTo(TimestampData.fromInstant(START.plusSeconds(60)));
        assertThat(row.getDouble(5)).isEqualTo(640.5);
        assertThat(row.getDouble(6)).isEqualTo(38.4);
        assertThat(row.getDouble(7)).isEqualTo(51.0);
        assertThat(row.getDouble(8)).isEqualTo(7.25);
        assertThat(VehicleMinuteRowConverter.columnNames())
                .hasSize(SHUFFLED.columns().size());
    }

    @Test
    void missingColumnIsReported() {
        Schema withoutSecondsStopped = new Schema(List.copyOf(SHUFFLED.columns().subList(0, 8)));

        assertThatThrownBy(() -> new VehicleMinuteRowConverter(withoutSecondsStopped))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fleet.vehicle_minutes")
                .hasMessageContaining("column seconds_stopped is missing");
    }
}
