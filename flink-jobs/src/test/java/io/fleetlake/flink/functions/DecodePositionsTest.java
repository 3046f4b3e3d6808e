package io.fleetlake.flink.functions;

import static io.fleetlake.flink.TestRecords.EVENT_TIME;
import static io.fleetlake.flink.TestRecords.KAFKA_TIME;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.flink.TestRecords;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.codec.PositionCodec;
import io.fleetlake.model.codec.PositionSchemas;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Queue;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.SchemaNormalization;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DecodePositionsTest {
    private static final Instant NOW = Instant.parse("2026-11-29T18:00:02Z");
    private static final Position POSITION = TestRecords.position("VH-0001", EVENT_TIME);

    private OneInputStreamOperatorTestHarness<RawRecord, IngestedPosition> harness;

    @BeforeEach
    void openHarness() throws Exception {
        harness = ProcessFunctionTestHarnesses.forProcessFunction(new DecodePositions());
        harness.setProcessingTime(NOW.toEpochMilli());
    }

    @AfterEach
    void closeHarness() throws Exception {
        harness.close();
    }

    @Test
    void avroAndJsonBecomeIngestedPositionsWithLineage() throws Exception {
        harness.processElement(TestRecords.avro(POSITION, 1, 41), 0);
        harness.processElement(TestRecords.json(POSITION, 0, 7), 0);

        assertThat(harness.extractOutputValues())
                .containsExactly(
                        new IngestedPosition(POSITION, 1, 41, KAFKA_TIME),
                        new IngestedPosition(POSITION, 0, 7, KAFKA_TIME));
        assertThat(rejected()).isEmpty();
    }

    @Test
    void garbageIsRejectedWithItsOriginalBytes() throws Exception {
        RawRecord garbage = TestRecords.raw("garbage".getBytes(StandardCharsets.US_ASCII), "VH-0001", 0, 3);

        harness.processElement(garbage, 0);

        assertThat(harness.extractOutputValues()).isEmpty();
        assertThat(rejected())
                .containsExactly(rejection(
                        garbage,
                        RejectionReason.MALFORMED_PAYLOAD,
                        "Payload is neither Avro single-object encoding (header C3 01) nor a JSON object; first"
                                + " bytes: 67 61 72 62 61 67 65"));
        assertThat(rejected().get(0).originalValue()).isEqualTo("garbage".getBytes(StandardCharsets.US_ASCII));
        assertThat(rejected().get(0).originalKey()).isEqualTo("VH-0001".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void recordWithoutValueIsRejected() throws Exception {
        RawRecord empty = TestRecords.raw(null, "VH-0001", 1, 4);

        harness.processElement(empty, 0);

        assertThat(rejected()).containsExactly(rejection(empty, RejectionReason.MALFORMED_PAYLOAD, "Payload is empty"));
    }

    @Test
    void unknownSchemaIsRejected() throws Exception {
        Schema otherFirmware = SchemaBuilder.record("Position")
                .namespace("io.fleetlake.model.avro")
                .fields()
                .requiredString("vehicle_id")
                .endRecord();
        byte[] payload = new PositionCodec(PositionSchemas.of(List.of(otherFirmware))).encodeAvro(POSITION);
        RawRecord record = TestRecords.raw(payload, "VH-0001", 0, 5);

        harness.processElement(record, 0);

        assertThat(harness.extractOutputValues()).isEmpty();
        assertThat(rejected())
                .containsExactly(rejection(
                        record,
                        RejectionReason.UNKNOWN_SCHEMA,
                        String.format(
                                "Schema fingerprint %016x is not one of the 1 known Position schema versions",
                                SchemaNormalization.parsingFingerprint64(otherFirmware))));
    }

    @Test
    void nanCoordinatesAreRejected() throws Exception {
        RawRecord nanLatitude = TestRecords.avro(withCoordinates(Double.NaN, -3.7), 0, 6);
        RawRecord longitudeOutOfRange = TestRecords.avro(withCoordinates(40.4, 180.5), 0, 7);

        harness.processElement(nanLatitude, 0);
        harness.processElement(longitudeOutOfRange, 0);

        assertThat(harness.extractOutputValues()).isEmpty();
        assertThat(rejected())
                .containsExactly(
                        rejection(
                                nanLatitude,
                                RejectionReason.INVALID_COORDINATES,
                                "latitude must be a finite number between -90 and 90, got NaN"),
                        rejection(
                                longitudeOutOfRange,
                                RejectionReason.INVALID_COORDINATES,
                                "longitude must be a finite number between -180 and 180, got 180.5"));
    }

    @Test
    void infiniteSpeedIsRejected() throws Exception {
        Position position =
                new Position("VH-0001", EVENT_TIME, 40.4, -3.7, Double.POSITIVE_INFINITY, 0, null, null, null);
        RawRecord record = TestRecords.avro(position, 0, 8);

        harness.processElement(record, 0);

        assertThat(rejected())
                .containsExactly(rejection(
                        record, RejectionReason.INVALID_FIELD, "speed_kmh must be a finite number, got Infinity"));
    }

    @Test
    void goodRecordsAfterBadOnesStillFlow() throws Exception {
        harness.processElement(TestRecords.raw(new byte[] {(byte) 0xC3, 0x01}, "VH-0001", 0, 1), 0);
        harness.processElement(TestRecords.avro(POSITION, 0, 2), 0);

        assertThat(harness.extractOutputValues()).containsExactly(new IngestedPosition(POSITION, 0, 2, KAFKA_TIME));
        assertThat(rejected()).hasSize(1);
    }

    private static Position withCoordinates(double latitude, double longitude) {
        return new Position("VH-0001", EVENT_TIME, latitude, longitude, 10, 90, null, null, null);
    }

    private static RejectedRecord rejection(RawRecord record, RejectionReason reason, String detail) {
        return RejectedRecord.of(record, reason, detail, NOW);
    }

    private List<RejectedRecord> rejected() {
        Queue<StreamRecord<RejectedRecord>> sideOutput = harness.getSideOutput(DecodePositions.REJECTED);
        if (sideOutput == null) {
            return List.of();
        }
        return sideOutput.stream().map(StreamRecord::getValue).toList();
    }
}
