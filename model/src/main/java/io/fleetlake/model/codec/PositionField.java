package io.fleetlake.model.codec;

import io.fleetlake.model.Position;
import java.util.function.Function;

/** The fields of a position as named in the Avro schemas, JSON payloads and Iceberg columns. */
public enum PositionField {
    VEHICLE_ID("vehicle_id", Position::vehicleId),
    EVENT_TIME("event_time", position -> position.eventTime().toEpochMilli()),
    LATITUDE("latitude", Position::latitude),
    LONGITUDE("longitude", Position::longitude),
    SPEED_KMH("speed_kmh", Position::speedKmh),
    HEADING_DEG("heading_deg", Position::headingDeg),
    ALTITUDE_M("altitude_m", Position::altitudeM),
    ACCURACY_M("accuracy_m", Position::accuracyM),
    SATELLITES("satellites", Position::satellites),
    BATTERY_LEVEL("battery_level", Position::batteryLevel);

    private final String fieldName;
    private final Function<Position, Object> reader;

    PositionField(String fieldName, Function<Position, Object> reader) {
        this.fieldName = fieldName;
        this.reader = reader;
    }

    /** The name in Avro schemas, JSON payloads and Iceberg tables. */
    public String fieldName() {
        return fieldName;
    }

    /** The field's value in Avro representation: event time as epoch milliseconds, absent measurements as null. */
    Object read(Position position) {
        return reader.apply(position);
    }
}
