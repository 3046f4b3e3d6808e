package io.fleetlake.model.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.codec.DecodeResult.Decoded;
import io.fleetlake.model.codec.DecodeResult.Rejected;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

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
    void firmwareOneAvroIsTheSameFixWithoutItsBatteryLevel() {
        byte[] v1 = codec.encodeAvro(FULL, codec.schemas().version(1));

        assertThat(codec.decode(v1)).isEqualTo(new Decoded(FULL.withBatteryLevel(null), PayloadFormat.AVRO, 1));
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

    /**
     * The reported incident: a few bytes with a known fingerprint whose {@code vehicle_id} declares a string far larger
     * than the payload. Avro allocates the declared length before reading, so lengths near {@code Integer.MAX_VALUE}
     * and near this JVM's heap were an {@link OutOfMemoryError}; each is now refused before Avro reads the body, with
     * the field, the declared length and the bytes that remain.
     */
    @ParameterizedTest(name = "declared length {0}")
    @MethodSource("impossibleStringLengths")
    void refusesAStringLengthTheBodyCannotHoldBeforeAvroAllocatesIt(long declared) {
        byte[] payload = new Body(codec.schemas().latest().schema())
                .varint(declared)
                .raw(3)
                .payload();

        assertThat(codec.decode(payload)).isInstanceOfSatisfying(Rejected.class, rejected -> {
            assertThat(rejected.reason()).isEqualTo(RejectionReason.MALFORMED_PAYLOAD);
            assertThat(rejected.detail())
                    .isEqualTo("Corrupt Avro body for schema version 2: field vehicle_id declares a string of "
                            + declared + " bytes, but 3 bytes remain");
        });
    }

    static Stream<Long> impossibleStringLengths() {
        long heap = Runtime.getRuntime().maxMemory();
        return Stream.of(
                (long) Integer.MAX_VALUE,
                (long) Integer.MAX_VALUE - 8,
                (long) Integer.MAX_VALUE - 1,
                heap,
                heap - 1,
                heap / 2,
                heap + 1,
                1L << 40,
                Long.MAX_VALUE,
                4L);
    }

    @ParameterizedTest(name = "declared length {0}")
    @CsvSource({"-1", "-2", "-2147483648", "-9223372036854775808"})
    void refusesANegativeStringLength(long declared) {
        byte[] payload = new Body(codec.schemas().latest().schema())
                .varint(declared)
                .raw(8)
                .payload();

        assertThat(codec.decode(payload)).isInstanceOfSatisfying(Rejected.class, rejected -> assertThat(
                        rejected.detail())
                .isEqualTo("Corrupt Avro body for schema version 2: field vehicle_id declares a string of negative"
                        + " length " + declared));
    }

    @Test
    void aStringThatFillsTheRestOfTheBodyExactlyPassesItsCheckAndTheNextFieldIsFoundMissing() {
        // The boundary of the check: a length equal to the bytes that remain passes it; the walk goes on to the next
        // field and finds nothing left for it.
        byte[] payload =
                new Body(codec.schemas().latest().schema()).varint(3).raw(3).payload();

        assertThat(codec.decode(payload))
                .isInstanceOfSatisfying(Rejected.class, rejected -> assertThat(rejected.detail())
                        .isEqualTo("Corrupt Avro body for schema version 2: field event_time ends before its value is"
                                + " complete (the body is truncated)"));
    }

    @Test
    void aUnionBranchOutsideTheUnionIsRefused() {
        byte[] valid = codec.encodeAvro(MINIMAL);
        // MINIMAL has no altitude: its body ends with the four null branches (index 0) of the optional fields.
        byte[] payload = valid.clone();
        payload[payload.length - 4] = 0x0A; // zig-zag 5

        assertThat(codec.decode(payload)).isInstanceOfSatisfying(Rejected.class, rejected -> assertThat(
                        rejected.detail())
                .isEqualTo("Corrupt Avro body for schema version 2: field altitude_m names union branch 5 of a union"
                        + " of 2 types"));
    }

    /**
     * A later schema version with every kind of Avro value the released ones lack: the check walks whatever schema
     * wrote the body, so these are bounded too.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("extensionBodies")
    void everyKindOfDeclaredLengthOfALaterSchemaVersionIsBounded(String name, Body extras, String detail) {
        DecodeResult result = EXTENDED_CODEC.decode(extras.payload());

        if (detail.isEmpty()) {
            assertThat(result).isInstanceOf(Decoded.class);
        } else {
            assertThat(result).isInstanceOfSatisfying(Rejected.class, rejected -> {
                assertThat(rejected.reason()).isEqualTo(RejectionReason.MALFORMED_PAYLOAD);
                assertThat(rejected.detail()).isEqualTo("Corrupt Avro body for schema version 3: " + detail);
            });
        }
    }

    static Stream<Arguments> extensionBodies() {
        return Stream.of(
                Arguments.of("every kind, valid", extended().validExtras(), ""),
                Arguments.of(
                        "bytes longer than the rest by one",
                        upTo("blob").varint(2).raw(1),
                        "field blob declares a bytes value of 2 bytes, but 1 bytes remain"),
                Arguments.of(
                        "bytes near Integer.MAX_VALUE",
                        upTo("blob").varint(Integer.MAX_VALUE - 8).raw(30),
                        "field blob declares a bytes value of 2147483639 bytes, but 30 bytes remain"),
                Arguments.of(
                        "negative bytes",
                        upTo("blob").varint(-3).raw(30),
                        "field blob declares a bytes value of negative length -3"),
                Arguments.of(
                        "fixed beyond the body",
                        upTo("antenna").raw(2),
                        "field antenna declares a fixed value of 4 bytes, but 2 bytes remain"),
                Arguments.of(
                        "enum symbol outside the enum",
                        upTo("mode").varint(7),
                        "field mode names enum symbol 7 of an enum of 2 symbols"),
                Arguments.of(
                        "array count beyond the body",
                        upTo("tags").varint(1_000_000_000L).raw(10),
                        "field tags declares 1000000000 items of at least 1 bytes each, but 10 bytes remain"),
                Arguments.of(
                        "array block byte size beyond the body",
                        upTo("tags").varint(-1).varint(Integer.MAX_VALUE).raw(10),
                        "field tags declares a block of 2147483647 bytes, but 10 bytes remain"),
                Arguments.of(
                        "string item beyond the body",
                        upTo("tags").varint(1).varint(Integer.MAX_VALUE).raw(10),
                        "field tags[] declares a string of 2147483647 bytes, but 10 bytes remain"),
                Arguments.of(
                        "map count beyond the body",
                        upTo("extras").varint(Integer.MAX_VALUE - 8).raw(10),
                        "field extras declares 2147483639 items of at least 2 bytes each, but 10 bytes remain"),
                Arguments.of(
                        "null items at the cap",
                        upTo("markers")
                                .varint(DeclaredLengths.MAX_EMPTY_ITEMS)
                                .varint(0)
                                .varint(0),
                        ""),
                Arguments.of(
                        "null items beyond the cap",
                        upTo("markers")
                                .varint(DeclaredLengths.MAX_EMPTY_ITEMS)
                                .varint(1)
                                .varint(0)
                                .varint(0),
                        "field markers declares 1 items of an empty encoding; at most 4096 are accepted in a payload"),
                Arguments.of(
                        "null items near Integer.MAX_VALUE",
                        upTo("markers").varint(Integer.MAX_VALUE).varint(0),
                        "field markers declares 2147483647 items of an empty encoding; at most 4096 are accepted in a"
                                + " payload"),
                Arguments.of(
                        "recursion deeper than the limit",
                        upTo("trail").trail(100_000),
                        "field trail.next.next.next.next.next.next.next.next.next.next.next.next.next.next.next.next"
                                + ".next.next.next.next.next.next.next.next.next.next.next.next.next.next.next.next"
                                + " is nested deeper than 64 levels"));
    }

    @Test
    void rejectsHeaderOnlyAvro() {
        assertThat(codec.decode(new byte[] {(byte) 0xC3, 0x01, 0x00}))
                .isInstanceOfSatisfying(Rejected.class, rejected -> assertThat(rejected.detail())
                        .contains("shorter than its 10-byte header"));
    }

    /** What a later firmware adds: one field of every kind of Avro value the released versions lack. */
    private static final Schema EXTRAS = new Schema.Parser()
            .parse(
                    """
                    {"type": "record", "name": "Extras", "namespace": "io.fleetlake.model.avro", "fields": [
                      {"name": "blob", "type": "bytes"},
                      {"name": "antenna", "type": {"type": "fixed", "name": "Antenna", "size": 4}},
                      {"name": "mode", "type": {"type": "enum", "name": "Mode", "symbols": ["GPS", "GLONASS"]}},
                      {"name": "tags", "type": {"type": "array", "items": "string"}},
                      {"name": "extras", "type": {"type": "map", "values": "long"}},
                      {"name": "markers", "type": {"type": "array", "items": "null"}},
                      {"name": "trail", "type": ["null", {"type": "record", "name": "Trail", "fields": [
                        {"name": "next", "type": ["null", "Trail"], "default": null}]}], "default": null}
                    ]}""");
    /** Version 3 of a later firmware: the fields of version 2, then the extras. */
    private static final Schema EXTENDED = extendedSchema();

    private static final PositionCodec EXTENDED_CODEC = new PositionCodec(PositionSchemas.of(List.of(
            PositionSchemas.bundled().version(1).schema(),
            PositionSchemas.bundled().version(2).schema(),
            EXTENDED)));

    private static Schema extendedSchema() {
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field field : PositionSchemas.bundled().version(2).schema().getFields()) {
            fields.add(new Schema.Field(field, field.schema()));
        }
        for (Schema.Field field : EXTRAS.getFields()) {
            fields.add(new Schema.Field(field, field.schema()));
        }
        return Schema.createRecord("Position", null, "io.fleetlake.model.avro", false, fields);
    }

    /** A body of the extended schema up to the named extra: FULL's fields, then an empty value of each extra before it. */
    private static Body upTo(String extra) {
        Body body = extended();
        for (Schema.Field field : EXTRAS.getFields()) {
            if (field.name().equals(extra)) {
                return body;
            }
            // Empty bytes, array and map, the first enum symbol and union branch (null) are all a zero; fixed is 4
            // bytes.
            if (field.schema().getType() == Schema.Type.FIXED) {
                body.raw(field.schema().getFixedSize());
            } else {
                body.varint(0);
            }
        }
        throw new IllegalArgumentException("No extra field " + extra);
    }

    /** A body of the extended schema: FULL's fields as version 2 writes them, then the extras a test appends. */
    private static Body extended() {
        byte[] v2 = PositionCodec.bundled().encodeAvro(FULL);
        return new Body(EXTENDED).raw(Arrays.copyOfRange(v2, 10, v2.length));
    }

    /** An Avro single-object payload written value by value, so that it can declare what it likes. */
    static final class Body {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);

        Body(Schema writer) {
            out.writeBytes(new byte[] {(byte) 0xC3, 0x01});
            out.writeBytes(ByteBuffer.allocate(8)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .putLong(SchemaNormalization.parsingFingerprint64(writer))
                    .array());
        }

        /** A zig-zag varint, as Avro writes an int, a long, a length, a count or an index. */
        Body varint(long value) {
            try {
                encoder.writeLong(value);
                encoder.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }

        Body raw(int zeros) {
            return raw(new byte[zeros]);
        }

        Body raw(byte[] bytes) {
            out.writeBytes(bytes);
            return this;
        }

        /** Valid values of every extra field. */
        Body validExtras() {
            varint(2).raw(new byte[] {1, 2}); // blob
            raw(new byte[] {9, 9, 9, 9}); // antenna
            varint(1); // mode GLONASS
            varint(2)
                    .varint(1)
                    .raw("a".getBytes(StandardCharsets.UTF_8))
                    .varint(2)
                    .raw("bc".getBytes(StandardCharsets.UTF_8))
                    .varint(0); // tags
            varint(-1)
                    .varint(3)
                    .varint(1)
                    .raw("k".getBytes(StandardCharsets.UTF_8))
                    .varint(42)
                    .varint(0); // extras
            varint(3).varint(0); // markers: three nulls
            varint(1).varint(1).varint(0); // trail: one Trail, next null
            return this;
        }

        /** The trail field as that many nested Trails. */
        Body trail(int depth) {
            byte[] branches = new byte[depth + 1];
            Arrays.fill(branches, 0, depth, (byte) 0x02);
            return raw(branches);
        }

        byte[] payload() {
            return out.toByteArray();
        }
    }
}
