package io.fleetlake.validation;

import io.fleetlake.model.Position;
import java.time.Duration;
import java.time.Instant;

/** Valid positions in central Madrid, changed one field at a time. */
final class PositionBuilder {
    static final Instant RECEIVED_AT = Instant.parse("2024-05-01T10:00:02Z");
    static final Instant EVENT_TIME = Instant.parse("2024-05-01T10:00:00Z");

    private String vehicleId = "VH-0001";
    private Instant eventTime = EVENT_TIME;
    private double latitude = 40.4168;
    private double longitude = -3.7038;
    private double speedKmh = 50;
    private double headingDeg = 90;
    private Double accuracyM = 5.0;
    private Double batteryLevel = 80.0;
    private Double altitudeM = 650.0;
    private Integer satellites = 9;

    static PositionBuilder madrid() {
        return new PositionBuilder();
    }

    PositionBuilder vehicle(String value) {
        vehicleId = value;
        return this;
    }

    PositionBuilder at(double newLatitude, double newLongitude) {
        latitude = newLatitude;
        longitude = newLongitude;
        return this;
    }

    PositionBuilder latitude(double value) {
        latitude = value;
        return this;
    }

    PositionBuilder longitude(double value) {
        longitude = value;
        return this;
    }

    PositionBuilder eventTime(Instant value) {
        eventTime = value;
        return this;
    }

    /** Event time relative to {@link #RECEIVED_AT}: positive is after the receive time. */
    PositionBuilder receivedAtPlus(Duration offset) {
        eventTime = RECEIVED_AT.plus(offset);
        return this;
    }

    PositionBuilder later(Duration offset) {
        eventTime = eventTime.plus(offset);
        return this;
    }

    PositionBuilder speed(double value) {
        speedKmh = value;
        return this;
    }

    PositionBuilder heading(double value) {
        headingDeg = value;
        return this;
    }

    PositionBuilder accuracy(Double value) {
        accuracyM = value;
        return this;
    }

    PositionBuilder altitude(Double value) {
        altitudeM = value;
        return this;
    }

    PositionBuilder satellites(Integer value) {
        satellites = value;
        return this;
    }

    PositionBuilder battery(Double value) {
        batteryLevel = value;
        return this;
    }

    Position build() {
        return new Position(
                vehicleId,
                eventTime,
                latitude,
                longitude,
                speedKmh,
                headingDeg,
                altitudeM,
                accuracyM,
                satellites,
                batteryLevel);
    }
}
