package io.fleetlake.flink.sinks;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.enrichment.Enrichment;
import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.model.Position;
import io.fleetlake.model.VehicleStatus;
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
 * @param batteryLevel battery charge in percent, or null when the device does not report it
 * @param status what the vehicle is doing
 * @param routeId its route, or null without one
 * @param nextStopId the next stop not reached yet, or null
 * @param distanceToNextStopM metres to the next stop, or null
 * @param distanceFromRouteM metres from the route path, or null without a route
 * @param enrichmentStale whether the route used was stale because the planning API could not be reached
 */
public record VehicleState(
        String vehicleId,
        Instant eventTime,
        double latitude,
        double longitude,
        double speedKmh,
        double headingDeg,
        Double batteryLevel,
        VehicleStatus status,
        String routeId,
        String nextStopId,
        Double distanceToNextStopM,
        Double distanceFromRouteM,
        boolean enrichmentStale) {
    public VehicleState {
        requireNonNull(vehicleId, "vehicleId is null");
        requireNonNull(eventTime, "eventTime is null");
        requireNonNull(status, "status is null");
    }

    public static VehicleState of(EnrichedPosition enriched) {
        Position position = enriched.position();
        Enrichment enrichment = enriched.enrichment();
        return new VehicleState(
                position.vehicleId(),
                position.eventTime(),
                position.latitude(),
                position.longitude(),
                position.speedKmh(),
                position.headingDeg(),
                position.batteryLevel(),
                enrichment.status(),
                enrichment.routeId(),
                enrichment.nextStopId(),
                enrichment.distanceToNextStopM(),
                enrichment.distanceFromRouteM(),
                enrichment.stale());
    }

    /** Whether this state would replace {@code other} under the newer-event-time-wins rule. */
    public boolean isNewerThan(VehicleState other) {
        return eventTime.isAfter(other.eventTime);
    }
}
