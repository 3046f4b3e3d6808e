package io.fleetlake.flink.records;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.windows.MinuteAggregate;
import java.time.Instant;

/**
 * One row of {@code fleet.vehicle_minutes}: a vehicle's aggregate over one minute of event time. A later firing of the
 * same window (a late position within the allowed lateness) produces a row with the same key that replaces this one.
 *
 * @param vehicleId the vehicle
 * @param windowStart start of the minute (inclusive)
 * @param windowEnd end of the minute (exclusive)
 * @param aggregate the numbers, see {@link MinuteAggregate}
 * @param computedAt processing time of the window firing that produced the row
 */
public record VehicleMinute(
        String vehicleId, Instant windowStart, Instant windowEnd, MinuteAggregate aggregate, Instant computedAt) {
    public VehicleMinute {
        requireNonNull(vehicleId, "vehicleId is null");
        requireNonNull(windowStart, "windowStart is null");
        requireNonNull(windowEnd, "windowEnd is null");
        requireNonNull(aggregate, "aggregate is null");
        requireNonNull(computedAt, "computedAt is null");
    }
}
