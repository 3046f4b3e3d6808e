package io.fleetlake.simulator.model;

import static java.util.Objects.requireNonNull;

import io.fleetlake.simulator.geo.GeoPoint;
import java.time.Duration;

/**
 * A planned stop of a route.
 *
 * @param name what the stop is, for example the city
 * @param location where the vehicle stops
 * @param dwell how long the vehicle stays; zero for the departure stop
 */
public record Stop(String name, GeoPoint location, Duration dwell) {
    public Stop {
        requireNonNull(name, "name is null");
        requireNonNull(location, "location is null");
        requireNonNull(dwell, "dwell is null");
        if (dwell.isNegative()) {
            throw new IllegalArgumentException("Dwell of stop " + name + " is negative: " + dwell);
        }
    }
}
