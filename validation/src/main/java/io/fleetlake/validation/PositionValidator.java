package io.fleetlake.validation;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.codec.PositionField;
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

    private final ValidationRules rules;

    public PositionValidator(ValidationRules rules) {
        this.rules = requireNonNull(rules, "rules is null");
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
     * The stateless rules, first failure wins: INVALID_COORDINATES, INVALID_FIELD, SPEED_TOO_HIGH, EVENT_TIME_IN_FUTURE,
     * EVENT_TIME_TOO_OLD, OUTSIDE_REGION.
     *
     * @param receivedAt when the record was received (the Kafka record timestamp, set at the MQTT receive time), not
     *     the wall clock
     */
    public Optional<Rejection> validate(Position position, Instant receivedAt) {
        requireNonNull(position, "position is null");
        requireNonNull(receivedAt, "receivedAt is null");
        return checkCoordinates(position)
                .or(() -> checkFields(position))
                .or(() -> checkSpeed(position))
                .or(() -> checkEventTime(position, receivedAt))
                .or(() -> checkRegion(position));
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
        Duration gap = Duration.between(previousAccepted.eventTime(), candidate.eventTime())
                .abs();
        if (gap.compareTo(rules.jumpCheckMaxGap()) > 0) {
            return Optional.empty();
        }
        double distanceKm = GreatCircle.distanceKm(
                previousAccepted.latitude(), previousAccepted.longitude(), candidate.latitude(), candidate.longitude());
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
                        DetailText.number(previousAccepted.latitude()),
                        DetailText.number(previousAccepted.longitude()),
                        previousAccepted.eventTime(),
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

    private static Optional<Rejection> reject(RejectionReason reason, String detail) {
        return Optional.of(new Rejection(reason, detail));
    }
}
