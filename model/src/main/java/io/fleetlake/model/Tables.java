package io.fleetlake.model;

/** Iceberg namespace and table names. */
public final class Tables {
    public static final String NAMESPACE = "fleet";
    /** Every accepted position, partitioned by day(event_time) and bucket(16, vehicle_id). */
    public static final String POSITIONS = "positions";
    /** Per-vehicle one-minute aggregates. */
    public static final String VEHICLE_MINUTES = "vehicle_minutes";
    /** Every rejected record with its reason, for audits. */
    public static final String REJECTED_POSITIONS = "rejected_positions";

    private Tables() {}

    /** {@code namespace.table}, as SQL engines and the Iceberg API expect it. */
    public static String qualified(String table) {
        return NAMESPACE + "." + table;
    }
}
