package io.fleetlake.flink.sinks;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.model.Position;
import java.time.Instant;

/**
 * The current-state update of one vehicle: what the dashboard shows for it.
 *
 * @param vehicleId fleet-wide vehicle identifier
 * @param eventTime when the device took the fix; only a strictly newer one replaces the stored state
 * @param latitude WGS84 degrees
 * @param longitude WGS84 degrees
 * @param speedKmh ground speed in km/h
 * @param headingDeg course over ground in degrees
 */
public record VehicleState(
        String vehicleId, Instant eventTime, double latitude, double longitude, double speedKmh, double headingDeg) {
    public VehicleState {
        requireNonNull(vehicleId, "vehicleId is null");
        requireNonNull(eventTime, "eventTime is null");
    }

    public static VehicleState of(IngestedPosition ingested) {
        Position position = ingested.position();
        return new VehicleState(
                position.vehicleId(),
                position.eventTime(),
                position.latitude(),
                position.longitude(),
                position.speedKmh(),
                position.headingDeg());
    }

    /** Whether this state would replace {@code other} under the newer-event-time-wins rule. */
    public boolean isNewerThan(VehicleState other) {
        return eventTime.isAfter(other.eventTime);
    }
}
