package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Where a vehicle was at an instant, as known at some state of the table.
 *
 * @param vehicleId the vehicle
 * @param at the instant asked about
 * @param knownAt the table state the answer comes from
 * @param lookback how far before {@code at} a fix was searched
 * @param fix the newest fix with event time at or before {@code at}; empty when there is none within the look-back
 */
public record WhereAt(String vehicleId, Instant at, AsOf knownAt, Duration lookback, Optional<TrackPoint> fix) {
    public WhereAt {
        requireNonNull(vehicleId, "vehicleId is null");
        requireNonNull(at, "at is null");
        requireNonNull(knownAt, "knownAt is null");
        requireNonNull(lookback, "lookback is null");
        requireNonNull(fix, "fix is null");
    }

    /** How old the fix was at {@link #at()}: zero when it was taken exactly then. */
    public Optional<Duration> fixAge() {
        return fix.map(point -> Duration.between(point.eventTime(), at));
    }
}
