package io.fleetlake.spark.geocode;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.OptionalLong;

/**
 * What a run did.
 *
 * @param plan what it read
 * @param positionsRead positions read from {@code fleet.positions} (after dropping repeated keys)
 * @param positionsNamed of those, the ones with a place within the maximum distance
 * @param rowsWritten rows the run added to {@code fleet.position_places} (new rows, and rows replaced because their
 *     coordinates or gazetteer changed); 0 for a rerun over the same snapshots
 * @param placesSnapshot the snapshot of {@code fleet.position_places} after the run
 * @param elapsed from planning to the commit
 */
public record GeocodeResult(
        GeocodePlan plan,
        long positionsRead,
        long positionsNamed,
        long rowsWritten,
        OptionalLong placesSnapshot,
        Duration elapsed) {
    public GeocodeResult {
        requireNonNull(plan, "plan is null");
        requireNonNull(placesSnapshot, "placesSnapshot is null");
        requireNonNull(elapsed, "elapsed is null");
    }

    /** Positions geocoded per second over the whole run, Spark's work included. */
    public double rowsPerSecond() {
        double seconds = elapsed.toNanos() / 1e9;
        return seconds > 0 ? positionsRead / seconds : 0;
    }
}
