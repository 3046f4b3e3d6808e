package io.fleetlake.model.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.codec.DecodeResult.Decoded;
import io.fleetlake.model.codec.DecodeResult.Rejected;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PositionCodecTest {
    private static final Instant EVENT_TIME = Instant.parse("2026-11-29T18:00:00.123Z");
    private static final Position FULL =
            new Position("VH-0001", EVENT_TIME, 40.4168, -3.7038, 57.5, 271.0, 655.0, 4.5, 11, 87.5);
    private static final Position MINIMAL = Position.of("VH-0002", EVENT_TIME, 35.8894, -5.3213, 0.0, 0.0);

    private final PositionCodec codec = PositionCodec.bundled();

    @Test
    void avroSingleObjectRoundTrip() {
        byte[] bytes = codec.encodeAvro(FULL);

        assertThat(bytes[0]).isEqualTo((byte) 0xC3);
        assertThat(bytes[1]).isEqualTo((byte) 0x01);
        assertThat(codec.decode(bytes)).isEqualTo(new Decoded(FULL, PayloadFormat.AVRO, 2));
    }

    @Test
    void avroWithoutOptionalMeasurements() {
        assertThat(codec.decode(codec.encodeAvro(MINIMAL))).isEqualTo(new Decoded(MINIMAL, PayloadFormat.AVRO, 2));
    }

    @Test
    void firmwareOneAvroDecodesWithoutBatteryLevel() {
        byte[] v1 = codec.encodeAvro(FULL, codec.schemas().version(1));

        DecodeResult result = codec.decode(v1);

        assertThat(result).isInstanceOfSatisfying(Decoded.class, decoded -> {
            assertThat(decoded.schemaVersion()).isEqualTo(1);
            assertThat(decoded.position().batteryLevel()).isNull();
            assertThat(decoded.position().satellites()).isEqualTo(11);
        });
    }

    @Test
    void jsonDecodesToTheSamePosition() {
        assertThat(codec.decode(codec.encodeJson(FULL))).isEqualTo(new Decoded(FULL, PayloadFormat.JSON, 0));
        assertThat(codec.decode(codec.encodeJson(MINIMAL))).isEqualTo(new Decoded(MINIMAL, PayloadFormat.JSON, 0));
    }

    @Test
    void jsonAcceptsEpochMillisAndIgnoresUnknownFields() {
        String json =
                """
                 {"vehicle_id":"VH-0002","event_time":%d,"latitude":35.8894,"longitude":-5.3213,
                  "speed_kmh":0,"heading_deg":0,"firmware":"9.1"}"""
                        .formatted(EVENT_TIME.toEpochMilli());

        assertThat(codec.decode(json.getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(new Decoded(MINIMAL, PayloadFormat.JSON, 0));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "missing vehicle | {\"event_time\":1,\"latitude\":1,\"longitude\":1,\"speed_kmh\":1,\"heading_deg\":1}"
                        + " | MISSING_FIELD | vehicle_id is missing",
                "null latitude | {\"vehicle_id\":\"V\",\"event_time\":1,\"latitude\":null,\"longitude\":1,"
                        + "\"speed_kmh\":1,\"heading_deg\":1} | MISSING_FIELD | latitude is missing",
                "latitude as string | {\"vehicle_id\":\"V\",\"event_time\":1,\"latitude\":\"40.1\",\"longitude\":1,"
                        + "\"speed_kmh\":1,\"heading_deg\":1} | INVALID_FIELD | latitude must be a number",
                "bad timestamp | {\"vehicle_id\":\"V\",\"event_time\":\"yesterday\",\"latitude\":1,\"longitude\":1,"
                        + "\"speed_kmh\":1,\"heading_deg\":1} | INVALID_FIELD | event_time must be an ISO-8601 instant",
                "empty vehicle | {\"vehicle_id\":\" \",\"event_time\":1,\"latitude\":1,\"longitude\":1,"
                        + "\"speed_kmh\":1,\"heading_deg\":1} | INVALID_FIELD | vehicle_id must be a non-empty string",
                "fractional satellites | {\"vehicle_id\":\"V\",\"event_time\":1,\"latitude\":1,\"longitude\":1,"
                        + "\"speed_kmh\":1,\"heading_deg\":1,\"satellites\":7.5} | INVALID_FIELD"
                        + " | satellites must be an integer",
                "truncated json | {\"vehicle_id\":\"V\", | MALFORMED_PAYLOAD | Invalid JSON",
                "plain text | hello | MALFORMED_PAYLOAD | neither Avro single-object encoding",
                "trailing garbage | {\"vehicle_id\":\"V\",\"event_time\":1,\"latitude\":1,\"longitude\":1,"
                        + "\"speed_kmh\":1,\"heading_deg\":1} garbage | MALFORMED_PAYLOAD | Invalid JSON",
                "a second object | {\"vehicle_id\":\"V\",\"event_time\":1,\"latitude\":1,\"longitude\":1,"
                        + "\"speed_kmh\":1,\"heading_deg\":1}{} | MALFORMED_PAYLOAD | Trailing token",
                "duplicate key | {\"vehicle_id\":\"V\",\"event_time\":1,\"latitude\":1,\"latitude\":2,"
                        + "\"longitude\":1,\"speed_kmh\":1,\"heading_deg\":1} | MALFORMED_PAYLOAD"
                        + " | Duplicate field 'latitude'",
                "array | [{\"vehicle_id\":\"V\"}] | MALFORMED_PAYLOAD | neither Avro single-object encoding",
                "event time beyond 64 bits | {\"vehicle_id\":\"V\",\"event_time\":92233720368547758070,"
                        + "\"latitude\":1,\"longitude\":1,\"speed_kmh\":1,\"heading_deg\":1} | INVALID_FIELD"
                        + " | event_time 92233720368547758070 is out of range",
            })
    void rejectsBadJsonWithReasonAndDetail(String name, String payload, RejectionReason reason, String detail) {
        DecodeResult result = codec.decode(payload.getBytes(StandardCharsets.UTF_8));

        assertThat(result).isInstanceOfSatisfying(Rejected.class, rejected -> {
            assertThat(rejected.reason()).isEqualTo(reason);
            assertThat(rejected.detail()).contains(detail);
        });
    }

    @Test
    void deepNestingIsRefusedAsMalformedWithoutExhaustingTheStack() {
        String nested = "{\"vehicle_id\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}";

        assertThat(codec.decode(nested.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(Rejected.class, rejected -> assertThat(rejected.reason())
                        .isEqualTo(RejectionReason.MALFORMED_PAYLOAD));
    }

    @Test
    void rejectsEmptyPayload() {
        assertThat(codec.decode(new byte[0]))
                .isEqualTo(new Rejected(RejectionReason.MALFORMED_PAYLOAD, "Payload is empty"));
    }

    @Test
    void rejectsUnknownSchemaFingerprint() {
        Schema unknown = SchemaBuilder.record("Position")
                .namespace("io.fleetlake.model.avro")
                .fields()
                .requiredString("vehicle_id")
                .endRecord();
        PositionCodec otherFirmware = new PositionCodec(PositionSchemas.of(List.of(unknown)));

        DecodeResult result = codec.decode(otherFirmware.encodeAvro(MINIMAL));

        assertThat(result).isInstanceOfSatisfying(Rejected.class, rejected -> {
            assertThat(rejected.reason()).isEqualTo(RejectionReason.UNKNOWN_SCHEMA);
            assertThat(rejected.detail()).contains("is not one of the 2 known Position schema versions");
        });
    }

    @Test
    void rejectsTruncatedAvroBody() {
        byte[] complete = codec.encodeAvro(FULL);
        byte[] truncated = java.util.Arrays.copyOf(complete, 14);

        assertThat(codec.decode(truncated)).isInstanceOfSatisfying(Rejected.class, rejected -> {
            assertThat(rejected.reason()).isEqualTo(RejectionReason.MALFORMED_PAYLOAD);
            assertThat(rejected.detail()).startsWith("Corrupt Avro body for schema version 2");
        });
    }

    @Test
    void rejectsAvroBodyDeclaringAnImpossibleStringLength() {
        byte[] header = java.util.Arrays.copyOf(codec.encodeAvro(FULL), 10);
        long length = 1L << 40;
        long zigZag = (length << 1) ^ (length >> 63);
        java.io.ByteArrayOutputStream payload = new java.io.ByteArrayOutputStream();
        payload.writeBytes(header);
        while ((zigZag & ~0x7FL) != 0) {
            payload.write((int) ((zigZag & 0x7F) | 0x80));
            zigZag >>>= 7;
        }
        payload.write((int) zigZag);

        assertThat(codec.decode(payload.toByteArray())).isInstanceOfSatisfying(Rejected.class, rejected -> {
            assertThat(rejected.reason()).isEqualTo(RejectionReason.MALFORMED_PAYLOAD);
            assertThat(rejected.detail()).startsWith("Corrupt Avro body for schema version 2");
        });
    }

    @Test
    void rejectsHeaderOnlyAvro() {
        assertThat(codec.decode(new byte[] {(byte) 0xC3, 0x01, 0x00}))
                .isInstanceOfSatisfying(Rejected.class, rejected -> assertThat(rejected.detail())
                        .contains("shorter than its 10-byte header"));
    }
}
