package io.fleetlake.simulator.model;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.codec.PayloadFormat;

/**
 * A vehicle of the simulated fleet and the device on board.
 *
 * @param index position in the fleet, from 0
 * @param vehicleId {@code VH-0001} for index 0
 * @param payloadFormat how its device encodes positions
 * @param schemaVersion the Position schema version its firmware writes: 1, or 2 for firmware 2, which also reports the
 *     battery level (in JSON as well)
 */
public record Vehicle(int index, String vehicleId, PayloadFormat payloadFormat, int schemaVersion) {
    public Vehicle {
        requireNonNull(vehicleId, "vehicleId is null");
        requireNonNull(payloadFormat, "payloadFormat is null");
        if (index < 0) {
            throw new IllegalArgumentException("Vehicle index must not be negative, got " + index);
        }
        if (schemaVersion < 1) {
            throw new IllegalArgumentException("A schema version starts at 1, got " + schemaVersion);
        }
    }

    /** Whether the device reports its battery level (firmware 2 and later). */
    public boolean reportsBattery() {
        return schemaVersion >= 2;
    }

    /** The id of the vehicle at a fleet index: {@code VH-0001}, {@code VH-0002}, ... */
    public static String idOf(int index) {
        return String.format("VH-%04d", index + 1);
    }
}
