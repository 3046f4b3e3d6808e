package io.fleetlake.flink.sinks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.flink.TestRecords;
import io.fleetlake.flink.enrichment.Enrichment;
import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.model.EnrichmentColumns;
import io.fleetlake.model.EnrichmentColumns.DistanceMethod;
import io.fleetlake.model.Position;
import io.fleetlake.model.Topics;
import io.fleetlake.model.VehicleStatus;
import io.fleetlake.model.codec.PositionField;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.iceberg.Schema;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.types.Types.NestedField;
import org.junit.jupiter.api.Test;

class PositionRowConverterTest {
    private static final Instant EVENT_TIME = Instant.parse("2026-11-29T18:00:00.123Z");
    private static final Instant INGEST_TIME = Instant.parse("2026-11-29T18:00:01.5Z");

    /** The table's columns in another order than the pipeline's, with one extra optional column. */
    private static final Schema SHUFFLED = new Schema(
            NestedField.required(1, "source_offset", Types.LongType.get()),
            NestedField.optional(2, "satellites", Types.IntegerType.get()),
            NestedField.required(3, "event_time", Types.TimestampType.withZone()),
            NestedField.optional(4, "operator_note", Types.StringType.get()),
            NestedField.required(5, "longitude", Types.DoubleType.get()),
            NestedField.required(6, "vehicle_id", Types.StringType.get()),
            NestedField.optional(7, "altitude_m", Types.DoubleType.get()),
            NestedField.required(8, "latitude", Types.DoubleType.get()),
            NestedField.required(9, "ingest_time", Types.TimestampType.withZone()),
            NestedField.required(10, "heading_deg", Types.DoubleType.get()),
            NestedField.optional(11, "accuracy_m", Types.DoubleType.get()),
            NestedField.required(12, "source_partition", Types.IntegerType.get()),
            NestedField.required(13, "speed_kmh", Types.DoubleType.get()),
            NestedField.optional(14, "battery_level", Types.DoubleType.get()));

    @Test
    void fillsColumnsByNameInTheTableOrder() throws Exception {
        EnrichedPosition position =
                withoutRoute(new Position("VH-0001", EVENT_TIME, 40.4168, -3.7038, 57.5, 271.0, 655.0, null, 11, 81.5));

        RowData row = roundTrip(new PositionRowConverter(SHUFFLED).map(position));

        assertThat(row.getArity()).isEqualTo(14);
        assertThat(row.getLong(0)).isEqualTo(42L);
        assertThat(row.getInt(1)).isEqualTo(11);
        assertThat(row.getTimestamp(2, 6)).isEqualTo(TimestampData.fromInstant(EVENT_TIME));
        assertThat(row.isNullAt(3)).isTrue();
        assertThat(row.getDouble(4)).isEqualTo(-3.7038);
        assertThat(row.getString(5)).isEqualTo(StringData.fromString("VH-0001"));
        assertThat(row.getDouble(6)).isEqualTo(655.0);
        assertThat(row.getDouble(7)).isEqualTo(40.4168);
        assertThat(row.getTimestamp(8, 6).toInstant()).isEqualTo(INGEST_TIME);
        assertThat(row.getDouble(9)).isEqualTo(271.0);
        assertThat(row.isNullAt(10)).as("absent accuracy").isTrue();
        assertThat(row.getInt(11)).isEqualTo(1);
        assertThat(row.getDouble(12)).isEqualTo(57.5);
        assertThat(row.getDouble(13)).isEqualTo(81.5);
    }

    @Test
    void firmwareWithoutBatteryLevelWritesNull() throws Exception {
        EnrichedPosition position = withoutRoute(Position.of("VH-0001", EVENT_TIME, 40.4168, -3.7038, 57.5, 271.0));

        RowData row = roundTrip(new PositionRowConverter(SHUFFLED).map(position));

        assertThat(row.isNullAt(13)).isTrue();
    }

    @Test
    void tableWithoutBatteryLevelColumnIsStillWritten() {
        Schema beforeMigration = new Schema(SHUFFLED.columns().stream()
                .filter(field -> !field.name().equals("battery_level"))
                .toList());

        assertThat(new PositionRowConverter(beforeMigration)
                        .map(TestRecords.enriched(TestRecords.position("VH-0001", EVENT_TIME), 0, 1))
                        .getArity())
                .isEqualTo(13);
    }

    @Test
    void enrichmentColumnsAreWrittenWhenTheTableHasThem() throws Exception {
        Schema enriched = new Schema(Stream.concat(
                        SHUFFLED.columns().stream(),
                        Stream.of(
                                NestedField.optional(20, "route_id", Types.StringType.get()),
                                NestedField.optional(21, "next_stop_id", Types.StringType.get()),
                                NestedField.optional(22, "distance_to_next_stop_m", Types.DoubleType.get()),
                                NestedField.optional(23, "distance_to_next_stop_method", Types.StringType.get()),
                                NestedField.optional(24, "distance_from_route_m", Types.DoubleType.get()),
                                NestedField.optional(25, "status", Types.StringType.get()),
                                NestedField.optional(26, "enrichment_stale", Types.BooleanType.get())))
                .toList());
        EnrichedPosition onRoute = new EnrichedPosition(
                ingested(Position.of("VH-0001", EVENT_TIME, 40.4168, -3.7038, 57.5, 271.0)),
                new Enrichment("R-1", "S-2", 812.5, DistanceMethod.ALONG_ROUTE, 7.5, VehicleStatus.ON_ROUTE, true));
        EnrichedPosition noRoute = withoutRoute(Position.of("VH-0002", EVENT_TIME, 40.4168, -3.7038, 0.0, 0.0));

        RowData row = roundTrip(new PositionRowConverter(enriched).map(onRoute), enriched);
        RowData empty = roundTrip(new PositionRowConverter(enriched).map(noRoute), enriched);

        assertThat(row.getString(14)).isEqualTo(StringData.fromString("R-1"));
        assertThat(row.getString(15)).isEqualTo(StringData.fromString("S-2"));
        assertThat(row.getDouble(16)).isEqualTo(812.5);
        assertThat(row.getString(17)).isEqualTo(StringData.fromString("ALONG_ROUTE"));
        assertThat(row.getDouble(18)).isEqualTo(7.5);
        assertThat(row.getString(19)).isEqualTo(StringData.fromString("ON_ROUTE"));
        assertThat(row.getBoolean(20)).isTrue();
        for (int column = 14; column <= 18; column++) {
            assertThat(empty.isNullAt(column))
                    .as("column %s without a route", column)
                    .isTrue();
        }
        assertThat(empty.getString(19)).isEqualTo(StringData.fromString("NO_ROUTE"));
        assertThat(empty.getBoolean(20)).isFalse();
    }

    @Test
    void writesEveryPositionFieldTheLineageAndTheEnrichmentColumns() {
        assertThat(PositionRowConverter.columnNames())
                .containsAll(Arrays.stream(PositionField.values())
                        .map(PositionField::fieldName)
                        .toList())
                .contains("source_partition", "source_offset", "ingest_time")
                .contains(
                        EnrichmentColumns.ROUTE_ID,
                        EnrichmentColumns.NEXT_STOP_ID,
                        EnrichmentColumns.DISTANCE_TO_NEXT_STOP_M,
                        EnrichmentColumns.DISTANCE_TO_NEXT_STOP_METHOD,
                        EnrichmentColumns.DISTANCE_FROM_ROUTE_M,
                        EnrichmentColumns.STATUS,
                        EnrichmentColumns.ENRICHMENT_STALE)
                .hasSize(PositionField.values().length + 3 + 7);
    }

    @Test
    void missingColumnIsReported() {
        Schema withoutSpeed = new Schema(SHUFFLED.columns().stream()
                .filter(field -> !field.name().equals("speed_kmh"))
                .toList());

        assertThatThrownBy(() -> new PositionRowConverter(withoutSpeed))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("The Iceberg table fleet.positions does not match what the pipeline writes")
                .hasMessageContaining("column speed_kmh is missing");
    }

    @Test
    void wrongTypeAndUnknownRequiredColumnAreReported() {
        List<NestedField> columns = SHUFFLED.columns().stream()
                .map(field -> field.name().equals("latitude")
                        ? NestedField.required(field.fieldId(), "latitude", Types.FloatType.get())
                        : field)
                .collect(java.util.stream.Collectors.toList());
        columns.add(NestedField.required(99, "driver_id", Types.StringType.get()));

        assertThatThrownBy(() -> new PositionRowConverter(new Schema(columns)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("column latitude has type float, expected DOUBLE")
                .hasMessageContaining("required column driver_id is not written by the pipeline");
    }

    private static EnrichedPosition withoutRoute(Position position) {
        return new EnrichedPosition(ingested(position), Enrichment.withoutRoute(VehicleStatus.NO_ROUTE));
    }

    private static IngestedPosition ingested(Position position) {
        return new IngestedPosition(
                position, new RawRecord(Topics.RAW_POSITIONS, 1, 42L, INGEST_TIME, null, new byte[] {1}, null, null));
    }

    private static RowData roundTrip(RowData row) throws Exception {
        return roundTrip(row, SHUFFLED);
    }

    /** Serialises with the table's Flink row type, which fails when a field has the wrong Java type. */
    private static RowData roundTrip(RowData row, Schema schema) throws Exception {
        TypeSerializer<RowData> serializer =
                InternalTypeInfo.of(FlinkSchemaUtil.convert(schema)).createSerializer(new SerializerConfigImpl());
        DataOutputSerializer out = new DataOutputSerializer(256);
        serializer.serialize(row, out);
        return serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    }
}
