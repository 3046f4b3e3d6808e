package io.fleetlake.simulator.model;

import static java.util.Objects.requireNonNull;

import io.fleetlake.simulator.geo.GeoPoint;

/**
 * Where a vehicle is and how it moves at one instant, before a device measures and rounds it.
 *
 * @param location exact position on the driven path
 * @param elevationMeters above sea level
 * @param speedKmh ground speed; zero while halted
 * @param headingDegrees course over ground, clockwise from north in [0, 360); while halted, the last course driven
 */
public record VehicleMotion(GeoPoint location, double elevationMeters, double speedKmh, double headingDegrees) {
    public VehicleMotion {
        requireNonNull(location, "location is null");
    }
}
