package io.fleetlake.flink.functions;

import static io.fleetlake.flink.TestRecords.EVENT_TIME;
import static io.fleetlake.flink.TestRecords.KAFKA_TIME;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

    /**
     * The reported incident: a JSON position whose event_time is a legal number far outside any plausible range made a
     * step throw {@code ArithmeticException: long overflow} while building the rejection's detail, outside the decode
     * guard, and the job restarted for ever. It is now an INVALID_FIELD rejection, and the records after it flow.
     */
    @Test
    void eventTimeFarOutsideAnyPlausibleRangeIsRejectedNotAFailure() throws Exception {
        RawRecord longMax = TestRecords.raw(json("VH-0001", "9223372036854775807"), "VH-0001", 0, 1);
        RawRecord longMin = TestRecords.raw(json("VH-0001", "-9223372036854775808"), "VH-0001", 0, 2);
        RawRecord beyondLong = TestRecords.raw(json("VH-0001", "92233720368547758070"), "VH-0001", 0, 3);
        RawRecord farFuture = TestRecords.raw(json("VH-0001", "\"+1000000000-01-01T00:00:00Z\""), "VH-0001", 0, 4);
        RawRecord good = TestRecords.json(POSITION, 0, 5);

        for (RawRecord record : List.of(longMax, longMin, beyondLong, farFuture, good)) {
            harness.processElement(record, 0);
        }

        assertThat(rejected())
                .extracting(RejectedRecord::reason)
                .containsExactly(
                        RejectionReason.INVALID_FIELD,
                        RejectionReason.INVALID_FIELD,
                        RejectionReason.INVALID_FIELD,
                        RejectionReason.INVALID_FIELD);
        assertThat(rejected().get(0).detail())
                .startsWith("event_time +292278994-08-17T07:12:55.807Z is outside 1980-01-06T00:00:00Z..");
        assertThat(rejected().get(2).detail()).contains("out of range");
        assertThat(harness.extractOutputValues()).containsExactly(new IngestedPosition(POSITION, good));
    }

    /**
     * Whatever a step throws on one record, the record is dead-lettered and the next one is processed: an exception, and
     * the errors one record can cause (a real {@link OutOfMemoryError} of an allocation sized by the record, a real
     * {@link StackOverflowError} of recursion as deep as the record).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "exception, java.lang.ArithmeticException: long overflow",
        "out of memory, java.lang.OutOfMemoryError: Java heap space",
        "stack overflow, java.lang.StackOverflowError"
    })
    void aStepThatFailsOnOneRecordDeadLettersItAsAProcessingErrorAndTheNextOneFlows(String kind, String summary)
            throws Exception {
        harness.close();
        harness = harnessFailingOn(kind);
        RawRecord poison = TestRecords.raw("X".getBytes(StandardCharsets.US_ASCII), "VH-0001", 0, 1);
        RawRecord good = TestRecords.avro(POSITION, 0, 2);

        harness.processElement(poison, 0);
        harness.processElement(good, 0);

        assertThat(rejected())
                .containsExactly(new RejectedRecord(
                        poison,
                        RejectionReason.PROCESSING_ERROR,
                        "decode-positions failed: " + summary,
                        NOW,
                        "VH-0001",
                        null));
        assertThat(harness.extractOutputValues()).containsExactly(new IngestedPosition(POSITION, good));
    }

    /** An error no record causes (here a class missing from the job's jar) still fails the task, to restart it. */
    @Test
    void anErrorNoRecordCausesFailsTheTask() throws Exception {
        harness.close();
        harness = harnessFailingOn("linkage");
        RawRecord poison = TestRecords.raw("X".getBytes(StandardCharsets.US_ASCII), "VH-0001", 0, 1);

        assertThatThrownBy(() -> harness.processElement(poison, 0))
                .isInstanceOf(NoClassDefFoundError.class)
                .hasMessage("io/fleetlake/Missing");
    }

    /** A decode-positions whose decoder fails on payloads starting with X in the given way. */
    private static OneInputStreamOperatorTestHarness<RawRecord, IngestedPosition> harnessFailingOn(String kind)
            throws Exception {
        OneInputStreamOperatorTestHarness<RawRecord, IngestedPosition> failing =
                ProcessFunctionTestHarnesses.forProcessFunction(new DecodePositions(TestRecords.RULES, schemas -> {
                    PositionCodec codec = new PositionCodec(schemas);
                    return payload -> {
                        if (payload != null && payload.length > 0 && payload[0] == 'X') {
                            fail(kind, payload);
                        }
                        return codec.decode(payload);
                    };
                }));
        failing.setProcessingTime(NOW.toEpochMilli());
        return failing;
    }

    private static void fail(String kind, byte[] payload) {
        switch (kind) {
            case "exception" -> throw new ArithmeticException("long overflow");
            // More than the test JVM's heap (-Xmx1g): refused at once, as a length a payload declares would be.
            case "out of memory" -> payload[0] = (new byte[Integer.MAX_VALUE - 8])[0];
            case "stack overflow" -> recurse(payload, 0);
            default -> throw new NoClassDefFoundError("io/fleetlake/Missing");
        }
    }

    private static int recurse(byte[] payload, int depth) {
        return recurse(payload, depth + 1) + payload.length;
    }

    @Test
    void vehicleIdsWithControlCharactersPathsOrTooManyCharactersAreRefused() throws Exception {
        for (String id : List.of("VH\r\n01", "../VH-01", "VH/01", "VH 01", "x".repeat(65), "VH-01\u0000")) {
            harness.processElement(TestRecords.raw(json(id, "\"2026-11-29T18:00:00.123Z\""), id, 0, 1), 0);
        }
        harness.processElement(TestRecords.avro(TestRecords.position("a.b_c-" + "9".repeat(58), EVENT_TIME), 0, 2), 0);

        assertThat(rejected()).hasSize(6).allSatisfy(rejected -> {
            assertThat(rejected.reason()).isEqualTo(RejectionReason.INVALID_VEHICLE_ID);
            assertThat(rejected.detail()).contains("does not match [A-Za-z0-9._-]{1,64}");
        });
        assertThat(rejected().get(0).detail()).startsWith("vehicle_id 'VH\\u000d\\u000a01' does not match");
        assertThat(harness.extractOutputValues()).as("64 allowed characters").hasSize(1);
    }

    @Test
    void payloadVehicleIdMustBeTheOneOfItsMqttTopicWhenTheRecordSaysWhichTopic() throws Exception {
        byte[] payload = PositionCodec.bundled().encodeAvro(POSITION);
        RawRecord otherTopic = withTopic(payload, "fleet/VH-0002/position", 1);
        RawRecord notAPositionTopic = withTopic(payload, "fleet/VH-0001/status", 2);
        RawRecord ownTopic = withTopic(payload, "fleet/VH-0001/position", 3);
        RawRecord noTopic = withTopic(payload, null, 4);

        for (RawRecord record : List.of(otherTopic, notAPositionTopic, ownTopic, noTopic)) {
            harness.processElement(record, 0);
        }

        assertThat(rejected())
                .extracting(RejectedRecord::reason, RejectedRecord::detail)
                .containsExactly(
                        tuple(
                                RejectionReason.VEHICLE_ID_MISMATCH,
                                "vehicle_id 'VH-0001' differs from 'VH-0002' of MQTT topic 'fleet/VH-0002/position'"),
                        tuple(
                                RejectionReason.VEHICLE_ID_MISMATCH,
                                "MQTT topic 'fleet/VH-0001/status' is not a position topic fleet/+/position"));
        assertThat(harness.extractOutputValues())
                .as("on its own topic, or produced straight into Kafka by a trusted tool")
                .extracting(IngestedPosition::source)
                .containsExactly(ownTopic, noTopic);
    }

    @Test
    void jsonMustBeExactlyOneObjectWithoutDuplicateKeys() throws Exception {
        String valid = new String(TestRecords.json(POSITION, 0, 0).value(), StandardCharsets.UTF_8);
        List<String> payloads = List.of(
                valid + " trailing",
                valid + "{}",
                valid + "]",
                "{\"vehicle_id\":\"VH-0001\"," + valid.substring(1),
                valid + "  \n");

        for (int i = 0; i < payloads.size(); i++) {
            harness.processElement(
                    TestRecords.raw(payloads.get(i).getBytes(StandardCharsets.UTF_8), "VH-0001", 0, i), 0);
        }

        assertThat(rejected())
                .extracting(RejectedRecord::reason)
                .containsExactly(
                        RejectionReason.MALFORMED_PAYLOAD,
                        RejectionReason.MALFORMED_PAYLOAD,
                        RejectionReason.MALFORMED_PAYLOAD,
                        RejectionReason.MALFORMED_PAYLOAD);
        assertThat(rejected().get(3).detail()).contains("Duplicate field 'vehicle_id'");
        assertThat(harness.extractOutputValues())
                .as("trailing whitespace is fine")
                .hasSize(1);
    }

    @Test
    void everyNumericFieldMustBeFiniteAndInItsRange() throws Exception {
        List<Position> positions = List.of(
                new Position("VH-0001", EVENT_TIME, 40.4, -3.7, 50, 90, Double.NaN, null, null, null),
                new Position("VH-0001", EVENT_TIME, 40.4, -3.7, 50, 90, Double.POSITIVE_INFINITY, null, null, null),
                new Position("VH-0001", EVENT_TIME, 40.4, -3.7, 50, 90, 10_000.1, null, null, null),
                new Position("VH-0001", EVENT_TIME, 40.4, -3.7, 50, 90, null, Double.NEGATIVE_INFINITY, null, null),
                new Position("VH-0001", EVENT_TIME, 40.4, -3.7, 50, 90, null, null, 256, null),
                new Position("VH-0001", EVENT_TIME, 40.4, -3.7, 50, 90, null, null, -1, null),
                new Position("VH-0001", EVENT_TIME, 40.4, -3.7, 50, 90, null, null, null, Double.NaN),
                new Position("VH-0001", EVENT_TIME, 40.4, -3.7, 50, Double.NEGATIVE_INFINITY, null, null, null, null),
                new Position("VH-0001", EVENT_TIME, 40.4, -3.7, 50, 90, -430.0, 0.0, 255, 0.0));

        for (int i = 0; i < positions.size(); i++) {
            harness.processElement(TestRecords.avro(positions.get(i), 0, i), 0);
        }

        assertThat(rejected())
                .extracting(
                        RejectedRecord::reason, rejected -> rejected.detail().split(" ")[0])
                .containsExactly(
                        tuple(RejectionReason.INVALID_FIELD, "altitude_m"),
                        tuple(RejectionReason.INVALID_FIELD, "altitude_m"),
                        tuple(RejectionReason.INVALID_FIELD, "altitude_m"),
                        tuple(RejectionReason.INVALID_FIELD, "accuracy_m"),
                        tuple(RejectionReason.INVALID_FIELD, "satellites"),
                        tuple(RejectionReason.INVALID_FIELD, "satellites"),
                        tuple(RejectionReason.INVALID_FIELD, "battery_level"),
                        tuple(RejectionReason.INVALID_FIELD, "heading_deg"));
        assertThat(harness.extractOutputValues())
                .as("the limits themselves pass")
                .hasSize(1);
    }

    private static byte[] json(String vehicleId, String eventTime) {
        StringBuilder escaped = new StringBuilder();
        for (char c : vehicleId.toCharArray()) {
            escaped.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return ("{\"vehicle_id\":\"" + escaped + "\",\"event_time\":" + eventTime
                        + ",\"latitude\":40.4168,\"longitude\":-3.7038,\"speed_kmh\":57.5,\"heading_deg\":271}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static RawRecord withTopic(byte[] payload, String mqttTopic, long offset) {
        return new RawRecord(
                "gps.raw.positions",
                0,
                offset,
                KAFKA_TIME,
                "VH-0001".getBytes(StandardCharsets.UTF_8),
                payload,
                mqttTopic,
                null);
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
