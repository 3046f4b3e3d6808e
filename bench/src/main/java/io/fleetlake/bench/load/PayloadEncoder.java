package io.fleetlake.bench.load;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fleetlake.model.Position;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.model.codec.PositionCodec;
import io.fleetlake.model.codec.PositionField;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Encodes fixes into the bytes devices send. Not thread-safe (the codec is not): one per thread. */
public final class PayloadEncoder {
    private final PositionCodec codec = PositionCodec.bundled();
    private final ObjectMapper json = new ObjectMapper();

    /** As the vehicle's device does: Avro single-object in its firmware's schema version, or JSON. */
    public byte[] asDevice(Fix fix) {
        requireNonNull(fix, "fix is null");
        return fix.vehicle().payloadFormat() == PayloadFormat.JSON
                ? codec.encodeJson(fix.position())
                : codec.encodeAvro(
                        fix.position(), codec.schemas().version(fix.vehicle().schemaVersion()));
    }

    /**
     * A JSON object with the Avro field names and {@code event_time} as epoch milliseconds: what devices may send, and
     * what the Iceberg Kafka Connect sink's JsonConverter reads into a timestamptz column.
     */
    public byte[] asJsonWithEpochMillis(Position position) {
        requireNonNull(position, "position is null");
        ObjectNode node = json.createObjectNode();
        node.put(PositionField.VEHICLE_ID.fieldName(), position.vehicleId());
        node.put(PositionField.EVENT_TIME.fieldName(), position.eventTime().toEpochMilli());
        node.put(PositionField.LATITUDE.fieldName(), position.latitude());
        node.put(PositionField.LONGITUDE.fieldName(), position.longitude());
        node.put(PositionField.SPEED_KMH.fieldName(), position.speedKmh());
        node.put(PositionField.HEADING_DEG.fieldName(), position.headingDeg());
        putOptional(node, PositionField.ALTITUDE_M, position.altitudeM());
        putOptional(node, PositionField.ACCURACY_M, position.accuracyM());
        if (position.satellites() != null) {
            node.put(PositionField.SATELLITES.fieldName(), position.satellites());
        }
        putOptional(node, PositionField.BATTERY_LEVEL, position.batteryLevel());
        try {
            return json.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot encode the position of " + position.vehicleId(), e);
        }
    }

    private static void putOptional(ObjectNode node, PositionField field, Double value) {
        if (value != null) {
            node.put(field.fieldName(), value);
        }
    }
}
