package io.fleetlake.simulator.model;

import static java.util.Objects.requireNonNull;

import io.fleetlake.simulator.geo.GeoPoint;

/**
 * A city the fleet drives between.
 *
 * @param name unique name, without accents so that it is safe in logs and identifiers
 * @param location city centre
 * @param elevationMeters elevation of the centre above sea level
 */
public record City(String name, GeoPoint location, double elevationMeters) {
    public City {
        requireNonNull(name, "name is null");
        requireNonNull(location, "location is null");
        if (name.isBlank()) {
            throw new IllegalArgumentException("City name is blank");
        }
    }
}
