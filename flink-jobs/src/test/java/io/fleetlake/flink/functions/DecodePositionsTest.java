package io.fleetlake.flink.functions;

import static io.fleetlake.flink.TestRecords.EVENT_TIME;
import static io.fleetlake.flink.TestRecords.KAFKA_TIME;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.flink.TestRecords;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.codec.PositionCodec;
import io.fleetlake.model.codec.PositionSchemas;
import io.fleetlake.validation.ValidationRules;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
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
    /** Processing time a day after the records were received: verdicts must not depend on it. */
    private static final Instant NOW = KAFKA_TIME.plus(Duration.ofDays(1));

    private static final Position POSITION = TestRecords.position("VH-0001", EVENT_TIME);

    private OneInputStreamOperatorTestHarness<RawRecord, IngestedPosition> harness;

    @BeforeEach
    void openHarness() throws Exception {
        harness = harness(TestRecords.RULES);
    }

    @AfterEach
    void closeHarness() throws Exception {
        harness.close();
    }

    @Test
    void avroVersionsAndJsonBecomeIngestedPositionsWithTheirRawRecord() throws Exception {
        PositionCodec codec = PositionCodec.bundled();
        Position withBattery = new Position("VH-0002", EVENT_TIME, 40.4, -3.7, 30.0, 90.0, null, null, null, 81.5);
        RawRecord version1 =
                TestRecords.raw(codec.encodeAvro(POSITION, codec.schemas().version(1)), "VH-0001", 1, 41);
        RawRecord version2 = TestRecords.avro(withBattery, 0, 6);
        RawRecord json = TestRecords.json(withBattery, 0, 7);

        harness.processElement(version1, 0);
        harness.processElement(version2, 0);
        harness.processElement(json, 0);

        assertThat(harness.extractOutputValues())
                .containsExactly(
                        new IngestedPosition(POSITION, version1),
                        new IngestedPosition(withBattery, version2),
                        new IngestedPosition(withBattery, json));
        assertThat(rejected()).isEmpty();
    }

    @Test
    void garbageIsRejectedWithItsOriginalRecordAndTheKeyAsVehicleId() throws Exception {
        RawRecord garbage = TestRecords.raw("garbage".getBytes(StandardCharsets.US_ASCII), "VH-0001", 0, 3);

        harness.processElement(garbage, 0);

        assertThat(harness.extractOutputValues()).isEmpty();
        assertThat(rejected())
                .containsExactly(new RejectedRecord(
                        garbage,
                        RejectionReason.MALFORMED_PAYLOAD,
                        "Payload is neither Avro single-object encoding (header C3 01) nor a JSON object; first"
                                + " bytes: 67 61 72 62 61 67 65",
                        NOW,
                        "VH-0001",
                        null));
        assertThat(rejected().get(0).source().value()).isEqualTo("garbage".getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void recordWithoutValueOrKeyIsRejected() throws Exception {
        RawRecord empty = TestRecords.raw(null, null, 1, 4);

        harness.processElement(empty, 0);

        assertThat(rejected())
                .containsExactly(new RejectedRecord(
                        empty, RejectionReason.MALFORMED_PAYLOAD, "Payload is empty", NOW, null, null));
    }

    @Test
    void oversizedPayloadIsRejectedBeforeDecoding() throws Exception {
        byte[] payload = new byte[TestRecords.RULES.maxPayloadBytes() + 1];
        Arrays.fill(payload, (byte) '{');
        RawRecord tooLarge = TestRecords.raw(payload, "VH-0001", 0, 9);
        byte[] json = TestRecords.json(POSITION, 0, 0).value();
        // Padded with trailing spaces to exactly the limit: still decoded.
        byte[] justFits = Arrays.copyOf(json, TestRecords.RULES.maxPayloadBytes());
        Arrays.fill(justFits, json.length, justFits.length, (byte) ' ');

        harness.processElement(tooLarge, 0);
        harness.processElement(TestRecords.raw(justFits, "VH-0001", 0, 10), 0);

        assertThat(rejected())
                .extracting(RejectedRecord::reason, RejectedRecord::detail)
                .containsExactly(tuple(
                        RejectionReason.PAYLOAD_TOO_LARGE,
                        "payload of 4097 bytes is larger than the limit of 4096 bytes"));
        assertThat(harness.extractOutputValues()).hasSize(1);
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
                .containsExactly(new RejectedRecord(
                        record,
                        RejectionReason.UNKNOWN_SCHEMA,
                        String.format(
                                "Schema fingerprint %016x is not one of the 2 known Position schema versions",
                                SchemaNormalization.parsingFingerprint64(otherFirmware)),
                        NOW,
                        "VH-0001",
                        null));
    }

    @Test
    void decodedPositionsBreakingARuleAreRejectedWithVehicleAndEventTime() throws Exception {
        RawRecord paris = TestRecords.avro(TestRecords.at("VH-0003", EVENT_TIME, 48.8566, 2.3522), 0, 6);
        RawRecord nanLatitude = TestRecords.avro(TestRecords.at("VH-0004", EVENT_TIME, Double.NaN, -3.7), 0, 7);
        RawRecord tooFast = TestRecords.avro(
                new Position("VH-0005", EVENT_TIME, 40.4, -3.7, 250.0, 90.0, null, null, null, null), 0, 8);

        harness.processElement(paris, 0);
        harness.processElement(nanLatitude, 0);
        harness.processElement(tooFast, 0);

        assertThat(harness.extractOutputValues()).isEmpty();
        assertThat(rejected())
                .extracting(
                        RejectedRecord::reason,
                        RejectedRecord::vehicleId,
                        RejectedRecord::eventTime,
                        RejectedRecord::source)
                .containsExactly(
                        tuple(RejectionReason.OUTSIDE_REGION, "VH-0003", EVENT_TIME, paris),
                        tuple(RejectionReason.INVALID_COORDINATES, "VH-0004", EVENT_TIME, nanLatitude),
                        tuple(RejectionReason.SPEED_TOO_HIGH, "VH-0005", EVENT_TIME, tooFast));
        assertThat(rejected().get(0).detail()).startsWith("latitude 48.8566, longitude 2.3522 is outside the");
        assertThat(rejected().get(2).detail()).isEqualTo("speed_kmh 250 km/h is above the maximum of 200 km/h");
    }

    @Test
    void timeRulesCompareWithTheKafkaTimestampNotTheClock() throws Exception {
        // Received a second after the fix, processed a day later (NOW): accepted, as on the day it arrived.
        harness.processElement(TestRecords.avro(POSITION, 0, 1), 0);
        RawRecord fromTheFuture = TestRecords.raw(
                TestRecords.avro(POSITION, 0, 2).value(), "VH-0001", 0, 2, EVENT_TIME.minus(Duration.ofMinutes(10)));
        RawRecord tooOld = TestRecords.raw(
                TestRecords.avro(POSITION, 0, 3).value(), "VH-0001", 0, 3, EVENT_TIME.plus(Duration.ofDays(8)));

        harness.processElement(fromTheFuture, 0);
        harness.processElement(tooOld, 0);

        assertThat(harness.extractOutputValues()).hasSize(1);
        assertThat(rejected())
                .extracting(RejectedRecord::reason)
                .containsExactly(RejectionReason.EVENT_TIME_IN_FUTURE, RejectionReason.EVENT_TIME_TOO_OLD);
    }

    @Test
    void rulesComeFromTheConfiguration() throws Exception {
        harness.close();
        harness = harness(ValidationRules.from(ConfigSource.of(Map.of(ValidationRules.MAX_SPEED_KMH, "50"))));

        harness.processElement(TestRecords.avro(POSITION, 0, 1), 0);

        assertThat(rejected()).extracting(RejectedRecord::reason).containsExactly(RejectionReason.SPEED_TOO_HIGH);
    }

    @Test
    void goodRecordsAfterBadOnesStillFlow() throws Exception {
        harness.processElement(TestRecords.raw(new byte[] {(byte) 0xC3, 0x01}, "VH-0001", 0, 1), 0);
        RawRecord good = TestRecords.avro(POSITION, 0, 2);
        harness.processElement(good, 0);

        assertThat(harness.extractOutputValues()).containsExactly(new IngestedPosition(POSITION, good));
        assertThat(rejected()).hasSize(1);
    }

    private static OneInputStreamOperatorTestHarness<RawRecord, IngestedPosition> harness(ValidationRules rules)
            throws Exception {
        OneInputStreamOperatorTestHarness<RawRecord, IngestedPosition> harness =
                ProcessFunctionTestHarnesses.forProcessFunction(new DecodePositions(rules));
        harness.setProcessingTime(NOW.toEpochMilli());
        return harness;
    }

    private List<RejectedRecord> rejected() {
        Queue<StreamRecord<RejectedRecord>> sideOutput = harness.getSideOutput(Rejections.SIDE_OUTPUT);
        if (sideOutput == null) {
            return List.of();
        }
        return sideOutput.stream().map(StreamRecord::getValue).toList();
    }
}
