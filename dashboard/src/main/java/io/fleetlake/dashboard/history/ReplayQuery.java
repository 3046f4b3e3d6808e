package io.fleetlake.dashboard.history;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.PlaceColumns;
import io.fleetlake.model.Tables;
import io.fleetlake.model.codec.PositionField;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.OptionalLong;

/**
 * The Trino query that reconstructs the fleet at an instant: the newest row of {@code fleet.positions} per vehicle
 * with {@code event_time} in {@code (at - lookback, at]}, optionally on the table as it stood at a snapshot.
 *
 * <p>The time bounds are bind parameters, so that the scan is pruned to the days ({@code day(event_time)} partitions)
 * the window covers. Each row gets the place {@code fleet geocode} named it after ({@code fleet.position_places} as it
 * is now; null until the position is geocoded). The only value written into the SQL text is the snapshot id, a validated {@code long}: Trino
 * takes no parameter in {@code FOR VERSION AS OF}. Every column is selected ({@code p.*}) because a snapshot keeps the
 * schema it was written with: columns added later are simply absent from older snapshots' rows.
 *
 * @param sql the statement, with {@code ?} for each of {@link #parameters()}
 * @param parameters the bind values, ISO-8601 instants read with {@code from_iso8601_timestamp}
 * @param at the replay instant (inclusive upper bound), at millisecond precision like the stored event times
 * @param scanFrom the exclusive lower bound, {@code at - lookback}
 * @param snapshotId the snapshot to read, or empty for the current table
 */
public record ReplayQuery(String sql, List<String> parameters, Instant at, Instant scanFrom, OptionalLong snapshotId) {
    private static final String VEHICLE_ID = PositionField.VEHICLE_ID.fieldName();
    private static final String EVENT_TIME = PositionField.EVENT_TIME.fieldName();
    /** Name of the ranking column the query adds to each row; not a table column. */
    static final String RANK_COLUMN = "replay_rank";

    public ReplayQuery {
        requireNonNull(sql, "sql is null");
        parameters = List.copyOf(requireNonNull(parameters, "parameters is null"));
        requireNonNull(at, "at is null");
        requireNonNull(scanFrom, "scanFrom is null");
        requireNonNull(snapshotId, "snapshotId is null");
    }

    /**
     * @param at the replay instant; truncated to milliseconds
     * @param snapshotId a snapshot id (positive), or empty for the current table
     * @param lookback how far before {@code at} to look for each vehicle's newest position
     */
    public static ReplayQuery of(Instant at, OptionalLong snapshotId, Duration lookback) {
        requireNonNull(at, "at is null");
        requireNonNull(snapshotId, "snapshotId is null");
        requireNonNull(lookback, "lookback is null");
        if (lookback.isNegative() || lookback.isZero()) {
            throw new IllegalArgumentException("lookback must be positive: " + lookback);
        }
        if (snapshotId.isPresent() && snapshotId.getAsLong() <= 0) {
            throw new IllegalArgumentException("snapshot ids are positive: " + snapshotId.getAsLong());
        }
        Instant upper = at.truncatedTo(ChronoUnit.MILLIS);
        Instant lower = upper.minus(lookback);
        String version = snapshotId.isPresent() ? " FOR VERSION AS OF " + snapshotId.getAsLong() : "";
        String sql = "SELECT r.*, pl." + PlaceColumns.PLACE_NAME + ", pl." + PlaceColumns.PROVINCE + " FROM ("
                + "SELECT * FROM ("
                + "SELECT p.*, row_number() OVER (PARTITION BY p." + VEHICLE_ID + " ORDER BY p." + EVENT_TIME
                + " DESC) AS " + RANK_COLUMN
                + " FROM " + Tables.qualified(Tables.POSITIONS) + version + " AS p"
                + " WHERE p." + EVENT_TIME + " > from_iso8601_timestamp(?)"
                + " AND p." + EVENT_TIME + " <= from_iso8601_timestamp(?)"
                + ") WHERE " + RANK_COLUMN + " = 1) r"
                + " LEFT JOIN " + Tables.qualified(Tables.POSITION_PLACES) + " pl"
                + " ON pl." + PlaceColumns.VEHICLE_ID + " = r." + VEHICLE_ID
                + " AND pl." + PlaceColumns.EVENT_TIME + " = r." + EVENT_TIME
                + " ORDER BY " + VEHICLE_ID;
        return new ReplayQuery(sql, List.of(iso(lower), iso(upper)), upper, lower, snapshotId);
    }

    private static String iso(Instant instant) {
        return DateTimeFormatter.ISO_INSTANT.format(instant);
    }
}
