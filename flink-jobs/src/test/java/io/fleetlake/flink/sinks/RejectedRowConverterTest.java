package io.fleetlake.flink.sinks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.flink.TestRecords;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.model.RejectedColumns;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
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

class RejectedRowConverterTest {
    private static final Instant RECEIVED = Instant.parse("2026-11-29T18:00:01.5Z");
    private static final Instant REJECTED_AT = Instant.parse("2026-11-29T18:00:02.25Z");

    /** The catalog's columns, in another order. */
    private static final Schema SCHEMA = new Schema(
            NestedField.required(1, RejectedColumns.PAYLOAD, Types.BinaryType.get()),
            NestedField.optional(2, RejectedColumns.VEHICLE_ID, Types.StringType.get()),
            NestedField.required(3, RejectedColumns.REASON, Types.StringType.get()),
            NestedField.optional(4, RejectedColumns.EVENT_TIME, Types.TimestampType.withZone()),
            NestedField.required(5, RejectedColumns.REJECTED_AT, Types.TimestampType.withZone()),
            NestedField.required(6, RejectedColumns.DETAIL, Types.StringType.get()),
            NestedField.required(7, RejectedColumns.SOURCE_TOPIC, Types.StringType.get()),
            NestedField.required(8, RejectedColumns.SOURCE_PARTITION, Types.IntegerType.get()),
            NestedField.required(9, RejectedColumns.SOURCE_OFFSET, Types.LongType.get()),
            NestedField.required(10, RejectedColumns.INGEST_TIME, Types.TimestampType.withZone()),
            NestedField.required(11, RejectedColumns.PAYLOAD_SIZE, Types.IntegerType.get()));

    @Test
    void decodedRejectionFillsEveryColumnByName() throws Exception {
        RawRecord source = TestRecords.avro(TestRecords.position("VH-0001", TestRecords.EVENT_TIME), 1, 42);
        RejectedRecord rejected = RejectedRecord.of(
                new IngestedPosition(TestRecords.position("VH-0001", TestRecords.EVENT_TIME), source),
                RejectionReason.IMPLAUSIBLE_JUMP,
                "505 km in 10s",
                REJECTED_AT);

        RowData row = roundTrip(new RejectedRowConverter(SCHEMA).map(rejected));

        assertThat(row.getBinary(0)).isEqualTo(source.value());
        assertThat(row.getString(1)).isEqualTo(StringData.fromString("VH-0001"));
        assertThat(row.getString(2)).isEqualTo(StringData.fromString("IMPLAUSIBLE_JUMP"));
        assertThat(row.getTimestamp(3, 6)).isEqualTo(TimestampData.fromInstant(TestRecords.EVENT_TIME));
        assertThat(row.getTimestamp(4, 6).toInstant()).isEqualTo(REJECTED_AT);
        assertThat(row.getString(5)).isEqualTo(StringData.fromString("505 km in 10s"));
        assertThat(row.getString(6)).isEqualTo(StringData.fromString(Topics.RAW_POSITIONS));
        assertThat(row.getInt(7)).isEqualTo(1);
        assertThat(row.getLong(8)).isEqualTo(42L);
        assertThat(row.getTimestamp(9, 6).toInstant()).isEqualTo(TestRecords.KAFKA_TIME);
        assertThat(row.getInt(10)).isEqualTo(source.value().length);
    }

    @Test
    void undecodedRejectionHasNoEventTimeAndTheKeyAsVehicleId() throws Exception {
        byte[] garbage = "garbage".getBytes(StandardCharsets.US_ASCII);
        RejectedRecord rejected = RejectedRecord.undecoded(
                new RawRecord(
                        Topics.RAW_POSITIONS,
                        0,
                        7,
                        RECEIVED,
                        "VH-0009".getBytes(StandardCharsets.UTF_8),
                        garbage,
                        null,
                        null),
                RejectionReason.MALFORMED_PAYLOAD,
                "not JSON",
                REJECTED_AT);

        RowData row = roundTrip(new RejectedRowConverter(SCHEMA).map(rejected));

        assertThat(row.getBinary(0)).isEqualTo(garbage);
        assertThat(row.getString(1)).isEqualTo(StringData.fromString("VH-0009"));
        assertThat(row.isNullAt(3)).as("event time").isTrue();
        assertThat(row.getInt(10)).isEqualTo(7);
    }

    @Test
    void recordWithoutKeyOrValueIsStoredAsAnEmptyPayload() throws Exception {
        RejectedRecord rejected = RejectedRecord.undecoded(
                new RawRecord(Topics.RAW_POSITIONS, 0, 8, RECEIVED, null, null, null, null),
                RejectionReason.MALFORMED_PAYLOAD,
                "Payload is empty",
                REJECTED_AT);

        RowData row = roundTrip(new RejectedRowConverter(SCHEMA).map(rejected));

        assertThat(row.getBinary(0)).isEmpty();
        assertThat(row.isNullAt(1)).as("vehicle id").isTrue();
        assertThat(row.getInt(10)).isZero();
    }

    @Test
    void writesEveryRejectedColumn() {
        assertThat(RejectedRowConverter.columnNames())
                .containsExactlyInAnyOrderElementsOf(
                        SCHEMA.columns().stream().map(NestedField::name).toList());
    }

    @Test
    void missingColumnIsReported() {
        Schema withoutPayload = new Schema(SCHEMA.columns().stream()
                .filter(field -> !field.name().equals(RejectedColumns.PAYLOAD))
                .toList());

        assertThatThrownBy(() -> new RejectedRowConverter(withoutPayload))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("The Iceberg table fleet.rejected_positions does not match")
                .hasMessageContaining("column payload is missing");
    }

    private static RowData roundTrip(RowData row) throws Exception {
        TypeSerializer<RowData> serializer =
                InternalTypeInfo.of(FlinkSchemaUtil.convert(SCHEMA)).createSerializer(new SerializerConfigImpl());
        DataOutputSerializer out = new DataOutputSerializer(256);
        serializer.serialize(row, out);
        return serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    }
}
