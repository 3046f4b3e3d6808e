package io.fleetlake.model;

/** Redis keys and hash fields of the fleet's current state, shared by the pipeline's sink and the dashboard. */
public final class RedisKeys {
    /** GEO set of every vehicle's newest position; member = vehicle id. */
    public static final String GEO_INDEX = "fleet:geo";
    /** Sorted set of vehicle ids scored by the event time (epoch ms) of their newest position. */
    public static final String LAST_SEEN = "fleet:last_seen";

    private static final String VEHICLE_PREFIX = "vehicle:";

    private RedisKeys() {}

    /** Hash with the newest position of one vehicle; see {@link VehicleField}. */
    public static String vehicle(String vehicleId) {
        return VEHICLE_PREFIX + vehicleId;
    }

    /** Fields of the per-vehicle hash. */
    public enum VehicleField {
        VEHICLE_ID("vehicle_id"),
        /** Epoch milliseconds of the fix; the newer-event-time-wins comparison reads this field. */
        EVENT_TIME("event_time"),
        LATITUDE("latitude"),
        LONGITUDE("longitude"),
        SPEED_KMH("speed_kmh"),
        HEADING_DEG("heading_deg"),
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
