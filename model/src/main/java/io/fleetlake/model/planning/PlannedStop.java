package io.fleetlake.model.planning;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;

/**
 * One delivery stop of a planned route.
 *
 * @param stopId unique within the fleet, stable for the life of the route
 * @param name what the driver sees, for example "Mercado Central, Valencia"
 */
public record PlannedStop(String stopId, String name, double latitude, double longitude) implements Serializable {
    public PlannedStop {
        requireNonNull(stopId, "stopId is null");
        requireNonNull(name, "name is null");
    }
}
