package io.fleetlake.bench.phase;

import static java.util.Objects.requireNonNull;

import io.fleetlake.simulator.model.Vehicle;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A backlog of fixes as {@link io.fleetlake.bench.load.FleetFeed#rounds} produces it: {@code records} fixes, every
 * vehicle once per fix interval from {@code start}, staggered within the interval. Knows which fix of each vehicle comes
 * first and last, so the current state in Redis tells how far the pipeline has come.
 */
record Backlog(List<Vehicle> vehicles, Instant start, Duration fixInterval, long records) {
    Backlog {
        vehicles = List.copyOf(requireNonNull(vehicles, "vehicles is null"));
        requireNonNull(start, "start is null");
        requireNonNull(fixInterval, "fixInterval is null");
    }

    /** Fixes vehicle {@code index} (of the feed's list) gets. */
    long fixesOf(int index) {
        return records / vehicles.size() + (index < records % vehicles.size() ? 1 : 0);
    }

    /** Epoch ms of the first fix of a vehicle. */
    long firstEventTime(int index) {
        return start.toEpochMilli() + index * fixInterval.toMillis() / vehicles.size();
    }

    /** Epoch ms of the last fix of a vehicle that gets at least one. */
    long lastEventTime(int index) {
        return firstEventTime(index) + (fixesOf(index) - 1) * fixInterval.toMillis();
    }

    /** The share of a vehicle's fixes up to and including the one at {@code eventTime}, 0 to 1. */
    double shareProcessed(int index, long eventTime) {
        long fixes = fixesOf(index);
        if (fixes == 0 || eventTime < firstEventTime(index)) {
            return 0;
        }
        long processed = (eventTime - firstEventTime(index)) / fixInterval.toMillis() + 1;
        return Math.min(1.0, processed / (double) fixes);
    }
}
