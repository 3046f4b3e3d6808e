package io.fleetlake.validation;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.MqttTopics;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.codec.PositionField;
import io.fleetlake.model.geo.GreatCircle;
import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * Applies {@link ValidationRules} to positions. Every verdict depends only on its arguments, never on the wall clock, so
 * a replay or a reprocessing run gives the verdict of the first run. Immutable and thread-safe; serialisable so that
 * Flink can ship it to task managers.
 */
public final class PositionValidator implements Serializable {
    private static final long serialVersionUID = 1L;

    private static final double SECONDS_PER_HOUR = 3600;
    private static final double MINIMUM_JUMP_SECONDS = 1;
    /** Below the lowest land (Dead Sea shore, -430 m) and above the highest road (5,800 m), with room for GPS error. */
    public static final double MIN_ALTITUDE_M = -1_000;

    public static final double MAX_ALTITUDE_M = 10_000;
    /** A receiver uses at most a few dozen satellites; the field is an unsigned byte in every GNSS message format. */
    public static final int MAX_SATELLITES = 255;
    /**
     * The earliest event time a GNSS receiver can report (the GPS epoch) and the latest one every sink and query engine
     * can hold (the last instant of a four-digit year): the time rules compare with the receive time, which a producer
     * sets, so these absolute bounds keep an absurd value out of the event-time arithmetic of every later step.
     */
    public static final Instant MIN_EVENT_TIME = Instant.parse("1980-01-06T00:00:00Z");

    public static final Instant MAX_EVENT_TIME = Instant.parse("9999-12-31T23:59:59.999999999Z");
    /** Longest part of an offending value quoted in a detail, so that a detail stays short whatever a payload holds. */
    private static final int QUOTED_VALUE_LIMIT = 80;

    private final ValidationRules rules;
    private final VehicleIdRule vehicleIdRule;

    public PositionValidator(ValidationRules rules) {
        this.rules = requireNonNull(rules, "rules is null");
        this.vehicleIdRule = VehicleIdRule.of(rules.vehicleIdPattern());
    }

    public ValidationRules rules() {
        return rules;
    }

    /** PAYLOAD_TOO_LARGE when the raw payload exceeds the limit; checked before decoding. */
    public Optional<Rejection> checkPayloadSize(int bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes is " + bytes + "; a payload size cannot be negative");
        }
        if (bytes <= rules.maxPayloadBytes()) {
            return Optional.empty();
        }
        return reject(
                RejectionReason.PAYLOAD_TOO_LARGE,
                "payload of " + bytes + " bytes is larger than the limit of " + rules.maxPayloadBytes() + " bytes");
    }

    /**
     * The stateless rules, first failure wins: INVALID_VEHICLE_ID, INVALID_COORDINATES, INVALID_FIELD, SPEED_TOO_HIGH,
     * EVENT_TIME_IN_FUTURE, EVENT_TIME_TOO_OLD, OUTSIDE_REGION.
     *
     * @param receivedAt when the record was received (the Kafka record timestamp, set at the MQTT receive time), not
     *     the wall clock
     */
    public Optional<Rejection> validate(Position position, Instant receivedAt) {
        requireNonNull(position, "position is null");
        requireNonNull(receivedAt, "receivedAt is null");
        return validate(position, receivedAt, null);
    }

    /**
     * {@link #validate(Position, Instant)} with VEHICLE_ID_MISMATCH ({@link #checkTopic}) right after
     * INVALID_VEHICLE_ID.
     *
     * @param mqttTopic the MQTT topic the payload was published on, or null when the record does not say
     */
    public Optional<Rejection> validate(Position position, Instant receivedAt, String mqttTopic) {
        requireNonNull(position, "position is null");
        requireNonNull(receivedAt, "receivedAt is null");
        return checkVehicleId(position.vehicleId())
                .or(() -> checkTopic(position.vehicleId(), mqttTopic))
                .or(() -> checkCoordinates(position))
                .or(() -> checkFields(position))
                .or(() -> checkSpeed(position))
                .or(() -> checkEventTime(position, receivedAt))
                .or(() -> checkRegion(position));
    }

    /**
     * INVALID_VEHICLE_ID unless the whole id matches {@link ValidationRules#vehicleIdPattern()} (by default 1 to 64
     * letters, digits, dots, underscores or hyphens). Part of {@link #validate}.
     */
    public Optional<Rejection> checkVehicleId(String vehicleId) {
        requireNonNull(vehicleId, "vehicleId is null");
        if (vehicleIdRule.matches(vehicleId)) {
            return Optional.empty();
        }
        return reject(
                RejectionReason.INVALID_VEHICLE_ID,
                PositionField.VEHICLE_ID.fieldName() + " " + quote(vehicleId) + " does not match "
                        + rules.vehicleIdPattern().pattern());
    }

    /**
     * VEHICLE_ID_MISMATCH when the payload's vehicle id is not the one of the MQTT topic the payload was published on
     * ({@code fleet/{vehicle_id}/position}, {@link MqttTopics}): a device may only report for itself. Without a topic
     * (a record produced straight into Kafka by a trusted tool, not through the MQTT broker) there is nothing to
     * compare, and no verdict.
     *
     * @param mqttTopic the topic of the {@code mqtt.topic} header, or null when the record has none
     */
    public Optional<Rejection> checkTopic(String vehicleId, String mqttTopic) {
        requireNonNull(vehicleId, "vehicleId is null");
        if (mqttTopic == null) {
            return Optional.empty();
        }
        Optional<String> topicVehicle = MqttTopics.vehicleId(mqttTopic);
        if (topicVehicle.isEmpty()) {
            return reject(
                    RejectionReason.VEHICLE_ID_MISMATCH,
                    "MQTT topic " + quote(mqttTopic) + " is not a position topic " + MqttTopics.POSITION_FILTER);
        }
        if (topicVehicle.get().equals(vehicleId)) {
            return Optional.empty();
        }
        return reject(
                RejectionReason.VEHICLE_ID_MISMATCH,
                PositionField.VEHICLE_ID.fieldName() + " " + quote(vehicleId) + " differs from "
                        + quote(topicVehicle.get()) + " of MQTT topic " + quote(mqttTopic));
    }

    /**
     * IMPLAUSIBLE_JUMP when going from the vehicle's previous accepted fix to the candidate needs a speed above
     * {@link ValidationRules#maxImpliedSpeedKmh()}. The order of the two fixes does not matter (out-of-order arrivals
     * use the absolute time difference); a difference under one second counts as one second, so a GPS receiver's
     * rounding cannot produce an infinite speed. No verdict when the fixes are further apart in time than
     * {@link ValidationRules#jumpCheckMaxGap()} (the vehicle may have been transported) or at the same place. Both
     * positions are expected to have passed {@link #validate}.
     */
    public Optional<Rejection> checkJump(Position previousAccepted, Position candidate) {
        requireNonNull(previousAccepted, "previousAccepted is null");
        requireNonNull(candidate, "candidate is null");
        if (!previousAccepted.vehicleId().equals(candidate.vehicleId())) {
            throw new IllegalArgumentException("Jump check across vehicles " + previousAccepted.vehicleId() + " and "
                    + candidate.vehicleId() + "; key the stream by vehicle");
        }
        return checkJump(
                previousAccepted.eventTime(), previousAccepted.latitude(), previousAccepted.longitude(), candidate);
    }

    /**
     * {@link #checkJump(Position, Position)} with the previous accepted fix given by its event time and place, as a
     * keyed operator keeps it (the vehicle is the key).
     */
    public Optional<Rejection> checkJump(
            Instant previousEventTime, double previousLatitude, double previousLongitude, Position candidate) {
        requireNonNull(previousEventTime, "previousEventTime is null");
        requireNonNull(candidate, "candidate is null");
        Duration gap =
                Duration.between(previousEventTime, candidate.eventTime()).abs();
        if (gap.compareTo(rules.jumpCheckMaxGap()) > 0) {
            return Optional.empty();
        }
        double distanceKm = GreatCircle.distanceKm(
                previousLatitude, previousLongitude, candidate.latitude(), candidate.longitude());
        double seconds = Math.max(gap.toMillis() / 1000.0, MINIMUM_JUMP_SECONDS);
        double impliedSpeedKmh = distanceKm / (seconds / SECONDS_PER_HOUR);
        if (!(impliedSpeedKmh > rules.maxImpliedSpeedKmh())) {
            return Optional.empty();
        }
        return reject(
                RejectionReason.IMPLAUSIBLE_JUMP,
                String.format(
                        Locale.ROOT,
                        "%.3f km from the previous accepted fix (%s, %s at %s) in %s implies %.1f km/h, above the"
                                + " maximum implied speed of %s km/h",
                        distanceKm,
                        DetailText.number(previousLatitude),
                        DetailText.number(previousLongitude),
                        previousEventTime,
                        gap.toMillis() < 1000
                                ? DetailText.duration(gap) + " (counted as 1s)"
                                : DetailText.duration(gap),
                        impliedSpeedKmh,
                        DetailText.number(rules.maxImpliedSpeedKmh())));
    }

    private static Optional<Rejection> checkCoordinates(Position position) {
        double latitude = position.latitude();
        double longitude = position.longitude();
        if (!(Math.abs(latitude) <= 90)) {
            return reject(
                    RejectionReason.INVALID_COORDINATES,
                    PositionField.LATITUDE.fieldName() + " " + DetailText.number(latitude) + " is outside -90..90");
        }
        if (!(Math.abs(longitude) <= 180)) {
            return reject(
                    RejectionReason.INVALID_COORDINATES,
                    PositionField.LONGITUDE.fieldName() + " " + DetailText.number(longitude) + " is outside -180..180");
        }
        return Optional.empty();
    }

    private static Optional<Rejection> checkFields(Position position) {
        Instant eventTime = position.eventTime();
        if (eventTime.isBefore(MIN_EVENT_TIME) || eventTime.isAfter(MAX_EVENT_TIME)) {
            return reject(
                    RejectionReason.INVALID_FIELD,
                    PositionField.EVENT_TIME.fieldName() + " " + eventTime + " is outside " + MIN_EVENT_TIME + ".."
                            + MAX_EVENT_TIME + " (the GPS epoch to the last year of four digits)");
        }
        double speed = position.speedKmh();
        if (!Double.isFinite(speed) || speed < 0) {
            return invalidField(PositionField.SPEED_KMH, speed, "is not a finite speed of 0 or more");
        }
        double heading = position.headingDeg();
        if (!(heading >= 0 && heading <= 360)) {
            return invalidField(PositionField.HEADING_DEG, heading, "is outside 0..360");
        }
        Double batteryLevel = position.batteryLevel();
        if (batteryLevel != null && !(batteryLevel >= 0 && batteryLevel <= 100)) {
            return invalidField(PositionField.BATTERY_LEVEL, batteryLevel, "is outside 0..100");
        }
        Double accuracy = position.accuracyM();
        if (accuracy != null && (!Double.isFinite(accuracy) || accuracy < 0)) {
            return invalidField(PositionField.ACCURACY_M, accuracy, "is not a finite distance of 0 or more");
        }
        Double altitude = position.altitudeM();
        if (altitude != null && !(altitude >= MIN_ALTITUDE_M && altitude <= MAX_ALTITUDE_M)) {
            return invalidField(
                    PositionField.ALTITUDE_M,
                    altitude,
                    "is outside " + DetailText.number(MIN_ALTITUDE_M) + ".." + DetailText.number(MAX_ALTITUDE_M));
        }
        Integer satellites = position.satellites();
        if (satellites != null && (satellites < 0 || satellites > MAX_SATELLITES)) {
            return invalidField(PositionField.SATELLITES, satellites, "is outside 0.." + MAX_SATELLITES);
        }
        return Optional.empty();
    }

    private Optional<Rejection> checkSpeed(Position position) {
        if (position.speedKmh() <= rules.maxSpeedKmh()) {
            return Optional.empty();
        }
        return reject(
                RejectionReason.SPEED_TOO_HIGH,
                PositionField.SPEED_KMH.fieldName() + " " + DetailText.number(position.speedKmh())
                        + " km/h is above the maximum of " + DetailText.number(rules.maxSpeedKmh()) + " km/h");
    }

    private Optional<Rejection> checkEventTime(Position position, Instant receivedAt) {
        Instant eventTime = position.eventTime();
        Duration ahead = Duration.between(receivedAt, eventTime);
        if (ahead.compareTo(rules.maxClockSkew()) > 0) {
            return reject(
                    RejectionReason.EVENT_TIME_IN_FUTURE,
                    "event_time " + eventTime + " is " + DetailText.duration(ahead) + " after the receive time "
                            + receivedAt + "; the allowed clock skew is " + DetailText.duration(rules.maxClockSkew()));
        }
        Duration age = ahead.negated();
        if (age.compareTo(rules.maxAge()) > 0) {
            return reject(
                    RejectionReason.EVENT_TIME_TOO_OLD,
                    "event_time " + eventTime + " is " + DetailText.duration(age) + " before the receive time "
                            + receivedAt + "; the maximum age is " + DetailText.duration(rules.maxAge()));
        }
        return Optional.empty();
    }

    private Optional<Rejection> checkRegion(Position position) {
        if (rules.region().contains(position.latitude(), position.longitude())) {
            return Optional.empty();
        }
        return reject(
                RejectionReason.OUTSIDE_REGION,
                "latitude " + DetailText.number(position.latitude()) + ", longitude "
                        + DetailText.number(position.longitude()) + " is outside the "
                        + rules.region().description());
    }

    private static Optional<Rejection> invalidField(PositionField field, double value, String problem) {
        return reject(
                RejectionReason.INVALID_FIELD, field.fieldName() + " " + DetailText.number(value) + " " + problem);
    }

    /** A value from a payload, quoted with its control characters escaped and cut to a readable length. */
    static String quote(String value) {
        StringBuilder quoted = new StringBuilder("'");
        int limit = Math.min(value.length(), QUOTED_VALUE_LIMIT);
        for (int i = 0; i < limit; i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '\'' || c == '\\') {
                quoted.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                quoted.append(c);
            }
        }
        quoted.append('\'');
        if (value.length() > limit) {
            quoted.append("... (").append(value.length()).append(" characters)");
        }
        return quoted.toString();
    }

    private static Optional<Rejection> reject(RejectionReason reason, String detail) {
        return Optional.of(new Rejection(reason, detail));
    }
}
