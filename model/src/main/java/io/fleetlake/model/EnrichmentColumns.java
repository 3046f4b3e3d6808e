package io.fleetlake.model;

/**
 * Columns the enrichment adds to {@code fleet.positions} (and fields of the Redis current state): where the vehicle is
 * on its planned route.
 */
public final class EnrichmentColumns {
    /** Route the planning API assigned to the vehicle; null when it has none. */
    public static final String ROUTE_ID = "route_id";
    /** The next stop not yet reached; null when the route has no stop left. */
    public static final String NEXT_STOP_ID = "next_stop_id";
    /** Metres to the next stop, measured as {@link #DISTANCE_TO_NEXT_STOP_METHOD} says. */
    public static final String DISTANCE_TO_NEXT_STOP_M = "distance_to_next_stop_m";
    /** {@link DistanceMethod} name: along the route path, or straight line when the vehicle is off the route. */
    public static final String DISTANCE_TO_NEXT_STOP_METHOD = "distance_to_next_stop_method";
    /** Metres from the route path. */
    public static final String DISTANCE_FROM_ROUTE_M = "distance_from_route_m";
    /** {@link VehicleStatus} name. */
    public static final String STATUS = "status";
    /** True when the route used is older than the refresh allows because the planning API could not be reached. */
    public static final String ENRICHMENT_STALE = "enrichment_stale";

    private EnrichmentColumns() {}

    /** How {@link #DISTANCE_TO_NEXT_STOP_M} was measured. */
    public enum DistanceMethod {
        ALONG_ROUTE,
        STRAIGHT_LINE
    }
}
