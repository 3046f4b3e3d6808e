package io.fleetlake.model.codec;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.codec.DecodeResult.Decoded;
import io.fleetlake.model.codec.DecodeResult.Rejected;
import io.fleetlake.model.codec.PositionSchemas.SchemaVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;

/**
 * Encodes and decodes device payloads. Two encodings are accepted and decode to the same {@link Position}:
 *
 * <ul>
 *   <li>Avro single-object encoding ({@code C3 01}, the writer schema's 8-byte CRC-64 fingerprint, the Avro body);
 *       every released {@link PositionSchemas schema version} can be read and is resolved to the newest one;
 *   <li>a JSON object whose field names are the Avro field names; {@code event_time} is an ISO-8601 instant or epoch
 *       milliseconds (an integer that fits a signed 64-bit number). The payload must be exactly one object: a key
 *       that appears twice, or anything but whitespace after the object, is {@link RejectionReason#MALFORMED_PAYLOAD},
 *       because which of two values a reader would take is undefined, and bytes after the object are not a position.
 * </ul>
 *
 * <p>Decoding never throws for bad input: it returns a {@link DecodeResult.Rejected} with a stable reason and a detail
 * that says exactly what is wrong. That includes bytes that declare more than they hold: before Avro's decoder reads an
 * Avro body, every string, bytes, fixed, array and map length it declares is checked against the bytes that remain by
 * a walk of the writer schema ({@link DeclaredLengths}), because Avro allocates what a body declares before reading it
 * (a 15-byte payload declaring a string of two billion bytes would be an {@link OutOfMemoryError}); such a body is
 * {@link RejectionReason#MALFORMED_PAYLOAD} with the field, the declared length and the bytes that remain. Decoding
 * allocates at most a few times the payload's size. Instances are not thread-safe; give each thread (Flink subtask)
 * its own.
 */
public final class PositionCodec {
    private static final byte[] SINGLE_OBJECT_MAGIC = {(byte) 0xC3, (byte) 0x01};
    private static final int SINGLE_OBJECT_HEADER_LENGTH = 10;
    private static final int PREVIEW_BYTES = 16;

    private final PositionSchemas schemas;
    private final BinaryMessageDecoder<GenericRecord> decoder;
    private final DeclaredLengths declaredLengths = new DeclaredLengths();
    private final ObjectMapper json = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    public PositionCodec(PositionSchemas schemas) {
        this.schemas = requireNonNull(schemas, "schemas is null");
        this.decoder =
                new BinaryMessageDecoder<>(GenericData.get(), schemas.latest().schema());
        for (SchemaVersion version : schemas.versions()) {
            decoder.addSchema(version.schema());
        }
    }

    public static PositionCodec bundled() {
        return new PositionCodec(PositionSchemas.bundled());
    }

    public PositionSchemas schemas() {
        return schemas;
    }

    /** Avro single-object encoding with the given schema version; fields the version lacks are left out. */
    public byte[] encodeAvro(Position position, SchemaVersion version) {
        requireNonNull(position, "position is null");
        Schema schema = version.schema();
        GenericRecord record = new GenericData.Record(schema);
        for (PositionField field : PositionField.values()) {
            if (schema.getField(field.fieldName()) != null) {
                record.put(field.fieldName(), field.read(position));
            }
        }
        try {
            ByteBuffer buffer = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), schema).encode(record);
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot encode position of " + position.vehicleId(), e);
        }
    }

    /** Avro single-object encoding with the newest schema version. */
    public byte[] encodeAvro(Position position) {
        return encodeAvro(position, schemas.latest());
    }

    /** UTF-8 JSON object with the Avro field names; absent optional measurements are left out. */
    public byte[] encodeJson(Position position) {
        ObjectNode node = json.createObjectNode();
        for (PositionField field : PositionField.values()) {
            Object value = field.read(position);
            if (value == null) {
                continue;
            }
            if (field == PositionField.EVENT_TIME) {
                node.put(field.fieldName(), position.eventTime().toString());
            } else {
                node.putPOJO(field.fieldName(), value);
            }
        }
        try {
            return json.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot encode position of " + position.vehicleId() + " as JSON", e);
        }
    }

    public DecodeResult decode(byte[] payload) {
        if (payload == null || payload.length == 0) {
            return new Rejected(RejectionReason.MALFORMED_PAYLOAD, "Payload is empty");
        }
        if (hasSingleObjectMagic(payload)) {
            return decodeAvro(payload);
        }
        if (firstNonWhitespace(payload) == '{') {
            return decodeJson(payload);
        }
        return new Rejected(
                RejectionReason.MALFORMED_PAYLOAD,
                "Payload is neither Avro single-object encoding (header C3 01) nor a JSON object; first bytes: "
                        + preview(payload));
    }

    private DecodeResult decodeAvro(byte[] payload) {
        if (payload.length < SINGLE_OBJECT_HEADER_LENGTH) {
            return new Rejected(
                    RejectionReason.MALFORMED_PAYLOAD,
                    "Avro single-object payload of " + payload.length + " bytes is shorter than its 10-byte header");
        }
        long fingerprint =
                ByteBuffer.wrap(payload, 2, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
        Optional<SchemaVersion> writer = schemas.byFingerprint(fingerprint);
        if (writer.isEmpty()) {
            return new Rejected(
                    RejectionReason.UNKNOWN_SCHEMA,
                    String.format(
                            "Schema fingerprint %016x is not one of the %d known Position schema versions",
                            fingerprint, schemas.versions().size()));
        }
        // Before Avro's decoder allocates what the body declares: every length must fit the bytes that remain.
        Optional<String> overlong = declaredLengths.check(writer.get().schema(), payload, SINGLE_OBJECT_HEADER_LENGTH);
        if (overlong.isPresent()) {
            return new Rejected(
                    RejectionReason.MALFORMED_PAYLOAD,
                    "Corrupt Avro body for schema version " + writer.get().number() + ": " + overlong.get());
        }
        GenericRecord record;
        try {
            record = decoder.decode(payload);
        } catch (IOException | RuntimeException e) {
            // The body is untrusted bytes: Avro's decoder reports a corrupt one in several ways (AvroRuntimeException,
            // IndexOutOfBoundsException, UnsupportedOperationException for an impossible string length, ...).
            // Whichever it is, the payload is malformed, not a fault of the pipeline.
            return new Rejected(
                    RejectionReason.MALFORMED_PAYLOAD,
                    "Corrupt Avro body for schema version " + writer.get().number() + ": " + e.getMessage());
        }
        String vehicleId = String.valueOf(record.get(PositionField.VEHICLE_ID.fieldName()));
        if (vehicleId.isBlank()) {
            return new Rejected(RejectionReason.INVALID_FIELD, "vehicle_id is empty");
        }
        Position position = new Position(
                vehicleId,
                Instant.ofEpochMilli((Long) record.get(PositionField.EVENT_TIME.fieldName())),
                (Double) record.get(PositionField.LATITUDE.fieldName()),
                (Double) record.get(PositionField.LONGITUDE.fieldName()),
                (Double) record.get(PositionField.SPEED_KMH.fieldName()),
                (Double) record.get(PositionField.HEADING_DEG.fieldName()),
                (Double) record.get(PositionField.ALTITUDE_M.fieldName()),
                (Double) record.get(PositionField.ACCURACY_M.fieldName()),
                (Integer) record.get(PositionField.SATELLITES.fieldName()),
                (Double) record.get(PositionField.BATTERY_LEVEL.fieldName()));
        return new Decoded(position, PayloadFormat.AVRO, writer.get().number());
    }

    private DecodeResult decodeJson(byte[] payload) {
        JsonNode node;
        try {
            node = json.readTree(payload);
        } catch (JacksonException e) {
            return new Rejected(RejectionReason.MALFORMED_PAYLOAD, "Invalid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            JsonFields fields = new JsonFields(node);
            String vehicleId = fields.requiredText(PositionField.VEHICLE_ID.fieldName());
            Position position = new Position(
                    vehicleId,
                    fields.requiredInstant(PositionField.EVENT_TIME.fieldName()),
                    fields.requiredDouble(PositionField.LATITUDE.fieldName()),
                    fields.requiredDouble(PositionField.LONGITUDE.fieldName()),
                    fields.requiredDouble(PositionField.SPEED_KMH.fieldName()),
                    fields.requiredDouble(PositionField.HEADING_DEG.fieldName()),
                    fields.optionalDouble(PositionField.ALTITUDE_M.fieldName()),
                    fields.optionalDouble(PositionField.ACCURACY_M.fieldName()),
                    fields.optionalInteger(PositionField.SATELLITES.fieldName()),
                    fields.optionalDouble(PositionField.BATTERY_LEVEL.fieldName()));
            return new Decoded(position, PayloadFormat.JSON, 0);
        } catch (FieldException e) {
            return new Rejected(e.reason, e.getMessage());
        }
    }

    private static boolean hasSingleObjectMagic(byte[] payload) {
        return payload.length >= 2 && payload[0] == SINGLE_OBJECT_MAGIC[0] && payload[1] == SINGLE_OBJECT_MAGIC[1];
    }

    private static int firstNonWhitespace(byte[] payload) {
        for (byte b : payload) {
            if (!Character.isWhitespace(b)) {
                return b;
            }
        }
        return -1;
    }

    private static String preview(byte[] payload) {
        int length = Math.min(payload.length, PREVIEW_BYTES);
        String hex = HexFormat.ofDelimiter(" ").formatHex(payload, 0, length);
        return payload.length > length ? hex + " ..." : hex;
    }

    /** Typed access to the fields of a JSON payload; failures carry the rejection reason. */
    private static final class JsonFields {
        private final JsonNode node;

        JsonFields(JsonNode node) {
            if (!node.isObject()) {
                throw new FieldException(RejectionReason.MALFORMED_PAYLOAD, "JSON payload is not an object");
            }
            this.node = node;
        }

        String requiredText(String name) {
            JsonNode value = required(name);
            if (!value.isTextual() || value.asText().isBlank()) {
                throw new FieldException(
                        RejectionReason.INVALID_FIELD, name + " must be a non-empty string, got " + value);
            }
            return value.asText();
        }

        Instant requiredInstant(String name) {
            JsonNode value = required(name);
            if (value.isIntegralNumber()) {
                if (!value.canConvertToLong()) {
                    throw new FieldException(
                            RejectionReason.INVALID_FIELD,
                            name + " " + value
                                    + " is out of range: epoch milliseconds must fit a signed 64-bit number");
                }
                return Instant.ofEpochMilli(value.asLong());
            }
            if (value.isTextual()) {
                try {
                    return Instant.parse(value.asText());
                } catch (DateTimeParseException e) {
                    throw new FieldException(
                            RejectionReason.INVALID_FIELD,
                            name + " must be an ISO-8601 instant such as 2026-11-29T18:00:00Z, got " + value);
                }
            }
            throw new FieldException(
                    RejectionReason.INVALID_FIELD,
                    name + " must be an ISO-8601 instant or epoch milliseconds, got " + value);
        }

        double requiredDouble(String name) {
            JsonNode value = required(name);
            if (!value.isNumber()) {
                throw new FieldException(RejectionReason.INVALID_FIELD, name + " must be a number, got " + value);
            }
            return value.asDouble();
        }

        Double optionalDouble(String name) {
            JsonNode value = node.get(name);
            if (value == null || value.isNull()) {
                return null;
            }
            if (!value.isNumber()) {
                throw new FieldException(RejectionReason.INVALID_FIELD, name + " must be a number, got " + value);
            }
            return value.asDouble();
        }

        Integer optionalInteger(String name) {
            JsonNode value = node.get(name);
            if (value == null || value.isNull()) {
                return null;
            }
            if (!value.isIntegralNumber() || !value.canConvertToInt()) {
                throw new FieldException(RejectionReason.INVALID_FIELD, name + " must be an integer, got " + value);
            }
            return value.asInt();
        }

        private JsonNode required(String name) {
            JsonNode value = node.get(name);
            if (value == null || value.isNull()) {
                throw new FieldException(RejectionReason.MISSING_FIELD, name + " is missing");
            }
            return value;
        }
    }

    private static final class FieldException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient RejectionReason reason;

        FieldException(RejectionReason reason, String message) {
            super(message, null, false, false);
            this.reason = reason;
        }
    }
}
