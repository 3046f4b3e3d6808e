package io.fleetlake.model;

import java.time.Duration;

/** Redis keys and hash fields of the fleet's current state, shared by the pipeline's sink and the dashboard. */
public final class RedisKeys {
    /** GEO set of every vehicle's newest position; member = vehicle id. */
    public static final String GEO_INDEX = "fleet:geo";
    /** Sorted set of vehicle ids scored by the event time (epoch ms) of their newest position. */
    public static final String LAST_SEEN = "fleet:last_seen";
    /**
     * Sorted set of vehicle ids scored by when (epoch ms, Redis' clock) their hash expires: the pipeline's script drops
     * expired vehicles from {@link #GEO_INDEX} and {@link #LAST_SEEN} with it.
     */
    public static final String EXPIRY = "fleet:expiry";

    /**
     * Configuration key of how long a vehicle's state stays in Redis after its last write: the pipeline sets it with
     * each write, {@code fleet verify} does not count a vehicle unseen for longer as lost.
     */
    public static final String VEHICLE_TTL_KEY = "pipeline.redis-vehicle-ttl";

    public static final Duration DEFAULT_VEHICLE_TTL = Duration.ofDays(7);

    private static final String VEHICLE_PREFIX = "vehicle:";

    private RedisKeys() {}

    /** Hash with the newest position of one vehicle; see {@link VehicleField}. */
    public static String vehicle(String vehicleId) {
        return VEHICLE_PREFIX + vehicleId;
    }

    /**
     * Fields of the per-vehicle hash. Optional measurements and enrichment fields are absent from the hash (not empty)
     * when the position has no value for them.
     */
    public enum VehicleField {
        VEHICLE_ID("vehicle_id"),
        /** Epoch milliseconds of the fix; the newer-event-time-wins comparison reads this field. */
        EVENT_TIME("event_time"),
        LATITUDE("latitude"),
        LONGITUDE("longitude"),
        SPEED_KMH("speed_kmh"),
        HEADING_DEG("heading_deg"),
        /** Battery charge in percent; absent for firmware 1.x devices. */
        BATTERY_LEVEL("battery_level"),
        /** {@link io.fleetlake.model.VehicleStatus} name. */
        STATUS("status"),
        /** Route the planning API assigned; absent when the vehicle has none. */
        ROUTE_ID("route_id"),
        /** The next stop not yet reached; absent when none is left. */
        NEXT_STOP_ID("next_stop_id"),
        /** Metres to the next stop (along the route, or straight line when off the route). */
        DISTANCE_TO_NEXT_STOP_M("distance_to_next_stop_m"),
        /** Metres from the route path. */
        DISTANCE_FROM_ROUTE_M("distance_from_route_m"),
        /** "true" when the route used was stale because the planning API could not be reached. */
        ENRICHMENT_STALE("enrichment_stale"),
        /** Epoch milliseconds at which the pipeline wrote the hash. */
        UPDATED_AT("updated_at");

        private final String field;

        VehicleField(String field) {
            this.field = field;
        }

        public String field() {
            return field;
        }
    }
}
