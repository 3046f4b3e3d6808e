package io.fleetlake.bench.load;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Position;
import io.fleetlake.simulator.model.Vehicle;

/** One fix of one vehicle of the simulated fleet, with the device that reports it (format and firmware). */
public record Fix(Vehicle vehicle, Position position) {
    public Fix {
        requireNonNull(vehicle, "vehicle is null");
        requireNonNull(position, "position is null");
    }
}
