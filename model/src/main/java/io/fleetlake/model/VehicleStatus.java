package io.fleetlake.model;

/** What a vehicle is doing, as the enrichment sees it. The names are stored in tables and Redis: never rename one. */
public enum VehicleStatus {
    /** Moving, within the deviation threshold of its planned route. */
    ON_ROUTE,
    /** Off its planned route beyond the threshold for several consecutive fixes. */
    DEVIATING,
    /** Slower than the stop threshold for at least the minimum stop duration. */
    STOPPED,
    /** Moving, but the planning API has no route for the vehicle. */
    NO_ROUTE
}
