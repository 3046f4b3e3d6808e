package io.fleetlake.flink.sinks;

import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.model.EnrichmentColumns;
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
 * Builds the row of {@code fleet.positions} for an {@link EnrichedPosition}, by column name in the table's column order
 * (see {@link ColumnMapping}). {@code battery_level} is written when the table has it and null for devices that do not
 * report it (firmware 1.x). The {@link EnrichmentColumns} are written when the table has them (the catalog adds them to
 * tables created before the enrichment), null where the enrichment has no value (no route, no stop left).
 */
public final class PositionRowConverter implements MapFunction<EnrichedPosition, RowData> {
    private static final long serialVersionUID = 1L;

    private final ColumnMapping<EnrichedPosition, PositionColumn> columns;

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
    public RowData map(EnrichedPosition position) {
        return columns.toRow(position);
    }

    private enum PositionColumn implements TableColumn<EnrichedPosition> {
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
        SOURCE_PARTITION(LineageColumns.SOURCE_PARTITION, Type.TypeID.INTEGER, true, position -> position.ingested()
                .sourcePartition()),
        SOURCE_OFFSET(LineageColumns.SOURCE_OFFSET, Type.TypeID.LONG, true, position -> position.ingested()
                .sourceOffset()),
        INGEST_TIME(
                LineageColumns.INGEST_TIME,
                Type.TypeID.TIMESTAMP,
                true,
                position -> TimestampData.fromInstant(position.ingested().ingestTime())),
        // The enrichment columns were added after the table's first release; see the class comment.
        ROUTE_ID(
                EnrichmentColumns.ROUTE_ID,
                Type.TypeID.STRING,
                false,
                position -> string(position.enrichment().routeId())),
        NEXT_STOP_ID(
                EnrichmentColumns.NEXT_STOP_ID,
                Type.TypeID.STRING,
                false,
                position -> string(position.enrichment().nextStopId())),
        DISTANCE_TO_NEXT_STOP_M(
                EnrichmentColumns.DISTANCE_TO_NEXT_STOP_M, Type.TypeID.DOUBLE, false, position -> position.enrichment()
                        .distanceToNextStopM()),
        DISTANCE_TO_NEXT_STOP_METHOD(
                EnrichmentColumns.DISTANCE_TO_NEXT_STOP_METHOD,
                Type.TypeID.STRING,
                false,
                position -> name(position.enrichment().distanceToNextStopMethod())),
        DISTANCE_FROM_ROUTE_M(
                EnrichmentColumns.DISTANCE_FROM_ROUTE_M, Type.TypeID.DOUBLE, false, position -> position.enrichment()
                        .distanceFromRouteM()),
        STATUS(
                EnrichmentColumns.STATUS,
                Type.TypeID.STRING,
                false,
                position -> name(position.enrichment().status())),
        ENRICHMENT_STALE(
                EnrichmentColumns.ENRICHMENT_STALE, Type.TypeID.BOOLEAN, false, position -> position.enrichment()
                        .stale());

        private final String columnName;
        private final Type.TypeID type;
        private final boolean requiredInTable;
        private final Function<EnrichedPosition, Object> value;

        PositionColumn(PositionField field, Type.TypeID type, Function<EnrichedPosition, Object> value) {
            this(field.fieldName(), type, true, value);
        }

        PositionColumn(
                String columnName,
                Type.TypeID type,
                boolean requiredInTable,
                Function<EnrichedPosition, Object> value) {
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
        public Object value(EnrichedPosition element) {
            return value.apply(element);
        }

        private static StringData string(String value) {
            return value == null ? null : StringData.fromString(value);
        }

        private static StringData name(Enum<?> value) {
            return value == null ? null : StringData.fromString(value.name());
        }
    }
}
