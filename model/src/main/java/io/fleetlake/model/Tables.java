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
    /** The nearest place of every geocoded position, keyed like positions by (vehicle_id, event_time). */
    public static final String POSITION_PLACES = "position_places";
    /** View: every position with its place, for analysts (positions left-joined with position_places). */
    public static final String POSITIONS_WITH_PLACES = "positions_with_places";

    private Tables() {}

    /** {@code namespace.table}, as SQL engines and the Iceberg API expect it. */
    public static String qualified(String table) {
        return NAMESPACE + "." + table;
    }
}
