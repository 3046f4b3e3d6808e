package io.fleetlake.flink.enrichment;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.EnrichmentColumns;
import io.fleetlake.model.EnrichmentColumns.DistanceMethod;
import io.fleetlake.model.VehicleStatus;

/**
 * Where a vehicle is on its planned route at one fix: the values of the {@link EnrichmentColumns} of
 * {@code fleet.positions} and of the matching Redis hash fields.
 *
 * @param routeId the route used, or null when the vehicle has none
 * @param nextStopId the first stop of the route not reached yet, or null without a route or when none is left
 * @param distanceToNextStopM metres to the next stop, measured as {@code distanceToNextStopMethod} says; null with
 *     {@code nextStopId}
 * @param distanceToNextStopMethod how the distance was measured; null with {@code nextStopId}
 * @param distanceFromRouteM metres from the route path; null without a route
 * @param status what the vehicle is doing
 * @param stale whether the route used is older than {@code enrichment.route-stale-after} because the planning API could
 *     not be reached; false without a route
 */
public record Enrichment(
        String routeId,
        String nextStopId,
        Double distanceToNextStopM,
        DistanceMethod distanceToNextStopMethod,
        Double distanceFromRouteM,
        VehicleStatus status,
        boolean stale) {
    public Enrichment {
        requireNonNull(status, "status is null");
        if ((nextStopId == null) != (distanceToNextStopM == null)
                || (nextStopId == null) != (distanceToNextStopMethod == null)) {
            throw new IllegalArgumentException("A next stop comes with its distance and how it was measured");
        }
        if (routeId == null && (nextStopId != null || distanceFromRouteM != null || stale)) {
            throw new IllegalArgumentException("Route fields need a route");
        }
    }

    /** A vehicle without a route: only its status, from its speed. */
    public static Enrichment withoutRoute(VehicleStatus status) {
        return new Enrichment(null, null, null, null, null, status, false);
    }
}
