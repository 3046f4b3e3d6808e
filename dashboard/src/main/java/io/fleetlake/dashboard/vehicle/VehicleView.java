package io.fleetlake.dashboard.vehicle;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * One vehicle as the dashboard shows it, live from Redis or replayed from Iceberg. The JSON names are the snake-case
 * forms of the component names ({@code vehicle_id}, {@code speed_kmh}, ...); absent values are JSON {@code null}.
 *
 * @param vehicleId fleet-wide vehicle identifier
 * @param latitude WGS84 degrees
 * @param longitude WGS84 degrees
 * @param speedKmh ground speed in km/h, or null when not stored
 * @param headingDeg course over ground in degrees, or null when not stored
 * @param status {@link io.fleetlake.model.VehicleStatus} name, or null before the enrichment set one
 * @param routeId route the planning API assigned, or null
 * @param nextStopId next stop not reached yet, or null
 * @param distanceToNextStopM metres to the next stop, or null
 * @param distanceFromRouteM metres from the route path, or null
 * @param batteryLevel battery charge in percent, or null (firmware 1.x)
 * @param enrichmentStale whether the route used was stale, or null when the position was not enriched
 * @param placeName the nearest place ({@code fleet geocode}) in a replay, or null (live, or not geocoded yet)
 * @param province the place's province or district, or null
 * @param eventTime when the device took the fix
 * @param updatedAt when the pipeline wrote the state (live), or when the record was ingested (replay); null when not
 *     stored
 * @param stale whether the fix is older than the stale threshold, measured from now (live) or the replay instant
 */
public record VehicleView(
        String vehicleId,
        double latitude,
        double longitude,
        Double speedKmh,
        Double headingDeg,
        String status,
        String routeId,
        String nextStopId,
        Double distanceToNextStopM,
        Double distanceFromRouteM,
        Double batteryLevel,
        Boolean enrichmentStale,
        String placeName,
        String province,
        Instant eventTime,
        Instant updatedAt,
        boolean stale) {
    public VehicleView {
        requireNonNull(vehicleId, "vehicleId is null");
        requireNonNull(eventTime, "eventTime is null");
    }
}
