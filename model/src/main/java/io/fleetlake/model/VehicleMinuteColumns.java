package io.fleetlake.model;

/**
 * Columns of {@code fleet.vehicle_minutes}: one row per vehicle and minute of event time; (vehicle_id, window_start)
 * identifies a row, and a late update of the same window replaces it.
 */
public final class VehicleMinuteColumns {
    public static final String VEHICLE_ID = "vehicle_id";
    /** Start of the one-minute window (inclusive), event time. */
    public static final String WINDOW_START = "window_start";
    /** End of the window (exclusive). */
    public static final String WINDOW_END = "window_end";
    /** Accepted positions in the window. */
    public static final String POSITIONS = "positions";
    /** Great-circle metres between consecutive fixes of the window, in event-time order. */
    public static final String DISTANCE_M = "distance_m";

    public static final String AVG_SPEED_KMH = "avg_speed_kmh";
    public static final String MAX_SPEED_KMH = "max_speed_kmh";
    /** Seconds between consecutive fixes of the window during which both fixes were below the stop speed. */
    public static final String SECONDS_STOPPED = "seconds_stopped";
    /** When this row was computed (by the pipeline, or by a backfill). */
    public static final String COMPUTED_AT = "computed_at";

    private VehicleMinuteColumns() {}
}
