package io.fleetlake.simulator.model;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.codec.PayloadFormat;

/**
 * A vehicle of the simulated fleet and the device on board.
 *
 * @param index position in the fleet, from 0
 * @param vehicleId {@code VH-0001} for index 0
 * @param payloadFormat how its device encodes positions
 */
public record Vehicle(int index, String vehicleId, PayloadFormat payloadFormat) {
    public Vehicle {
        requireNonNull(vehicleId, "vehicleId is null");
        requireNonNull(payloadFormat, "payloadFormat is null");
        if (index < 0) {
            throw new IllegalArgumentException("Vehicle index must not be negative, got " + index);
        }
    }

    /** The id of the vehicle at a fleet index: {@code VH-0001}, {@code VH-0002}, ... */
    public static String idOf(int index) {
        return String.format("VH-%04d", index + 1);
    }
}
