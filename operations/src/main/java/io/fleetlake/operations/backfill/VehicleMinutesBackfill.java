package io.fleetlake.operations.backfill;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.MessageHeaders;
import io.fleetlake.model.Tables;
import io.fleetlake.model.Topics;
import io.fleetlake.model.codec.PositionField;
import io.fleetlake.model.geo.GreatCircle;
import io.fleetlake.model.trino.TrinoConnectionFactory;
import io.fleetlake.operations.inspect.KafkaInspector;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.header.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recomputes windows of {@code fleet.vehicle_minutes} from {@code fleet.positions}, for positions that arrived after
 * their window closed in the pipeline (they are in the history but not in the window's row).
 *
 * <p>The numbers are defined by the pipeline's {@code MinuteAggregate}; the SQL here computes the same: per vehicle and
 * one-minute event-time window, the count of positions, the great-circle metres (haversine, Earth radius 6,371,008.8
 * m) between consecutive fixes in event-time order, average and maximum speed, and the seconds between consecutive
 * fixes that were both below the stop speed. Each vehicle's affected range is recomputed with one {@code MERGE}:
 * unchanged rows are not touched and missing rows are inserted, so a second run changes nothing.
 */
public final class VehicleMinutesBackfill {
    private static final Logger LOG = LoggerFactory.getLogger(VehicleMinutesBackfill.class);
    private static final int COMMIT_ATTEMPTS = 3;

    private final TrinoConnectionFactory connections;
    private final double stopSpeedKmh;

    /**
     * @param connections Trino connections that may write: {@code admin}'s on {@code iceberg_admin}
     * @param stopSpeedKmh the pipeline's {@code enrichment.stop-speed-kmh}
     */
    public VehicleMinutesBackfill(TrinoConnectionFactory connections, double stopSpeedKmh) {
        this.connections = requireNonNull(connections, "connections is null");
        this.stopSpeedKmh = stopSpeedKmh;
    }

    /** The windows named by the records of {@link Topics#LATE_POSITIONS} whose event time is at or after {@code since}. */
    public static SortedSet<AffectedWindow> windowsOfLatePositions(String bootstrapServers, Optional<Instant> since) {
        SortedSet<AffectedWindow> windows = new TreeSet<>();
        new KafkaInspector(bootstrapServers).forEachRecord(Topics.LATE_POSITIONS, record -> {
            Header eventTime = record.headers().lastHeader(MessageHeaders.LATE_EVENT_TIME);
            if (record.key() == null || eventTime == null) {
                LOG.warn(
                        "Late record {}-{}@{} has no vehicle key or event time; skipped",
                        record.topic(),
                        record.partition(),
                        record.offset());
                return;
            }
            Instant time = Instant.ofEpochMilli(Long.parseLong(new String(eventTime.value(), StandardCharsets.UTF_8)));
            if (since.map(start -> !time.isBefore(start)).orElse(true)) {
                windows.add(AffectedWindow.containing(new String(record.key(), StandardCharsets.UTF_8), time));
            }
        });
        return windows;
    }

    /**
     * Recomputes the windows; returns the number of rows inserted or updated (0 when everything was already right).
     */
    public long recompute(SortedSet<AffectedWindow> windows) throws SQLException {
        Map<String, List<AffectedWindow>> byVehicle = new TreeMap<>();
        windows.forEach(window -> byVehicle
                .computeIfAbsent(window.vehicleId(), id -> new ArrayList<>())
                .add(window));
        long changed = 0;
        try (Connection connection = connect()) {
            for (Map.Entry<String, List<AffectedWindow>> vehicle : byVehicle.entrySet()) {
                List<AffectedWindow> vehicleWindows = vehicle.getValue();
                changed += merge(
                        connection,
                        vehicle.getKey(),
                        vehicleWindows.get(0).windowStart(),
                        vehicleWindows.get(vehicleWindows.size() - 1).windowEnd(),
                        vehicleWindows);
            }
        }
        return changed;
    }

    private long merge(Connection connection, String vehicleId, Instant from, Instant to, List<AffectedWindow> windows)
            throws SQLException {
        String sql = mergeStatement(from, to, windows);
        for (int attempt = 1; ; attempt++) {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                statement.setString(1, vehicleId);
                long changed = statement.executeLargeUpdate();
                LOG.info(
                        "Backfilled {} window(s) of {} between {} and {}: {} row(s) changed",
                        windows.size(),
                        vehicleId,
                        from,
                        to,
                        changed);
                return changed;
            } catch (SQLException e) {
                // The pipeline commits to the same table; Iceberg's optimistic concurrency may refuse one commit.
                if (attempt >= COMMIT_ATTEMPTS) {
                    throw e;
                }
                LOG.warn(
                        "Backfill of {} failed (attempt {} of {}), retrying: {}",
                        vehicleId,
                        attempt,
                        COMMIT_ATTEMPTS,
                        e.getMessage());
            }
        }
    }

    /** The statement for one vehicle (its id is the only parameter); instants are written as UTC literals. */
    String mergeStatement(Instant from, Instant to, List<AffectedWindow> windows) {
        String windowList = String.join(
                ", ",
                windows.stream()
                        .map(window -> timestampLiteral(window.windowStart()))
                        .toList());
        String haversine = GreatCircle.sql("previous_latitude", "previous_longitude", "latitude", "longitude");
        String stopped = "CASE WHEN speed_kmh < " + stopSpeedKmh + " AND previous_speed < " + stopSpeedKmh
                + " THEN date_diff('millisecond', previous_time, event_time) / 1000.0 END";
        return "MERGE INTO " + Tables.qualified(Tables.VEHICLE_MINUTES) + " AS t USING ("
                + " SELECT vehicle_id, window_start, window_start + INTERVAL '1' MINUTE AS window_end,"
                + " CAST(count(*) AS integer) AS positions,"
                + " coalesce(sum(" + haversine + "), 0e0) AS distance_m,"
                + " avg(speed_kmh) AS avg_speed_kmh, max(speed_kmh) AS max_speed_kmh,"
                + " coalesce(sum(" + stopped + "), 0e0) AS seconds_stopped"
                + " FROM ("
                + "  SELECT vehicle_id, event_time, latitude, longitude, speed_kmh, window_start,"
                + "   lag(latitude) OVER w AS previous_latitude, lag(longitude) OVER w AS previous_longitude,"
                + "   lag(speed_kmh) OVER w AS previous_speed, lag(event_time) OVER w AS previous_time"
                + "  FROM (SELECT " + PositionField.VEHICLE_ID.fieldName() + " AS vehicle_id, "
                + PositionField.EVENT_TIME.fieldName() + " AS event_time, latitude, longitude, speed_kmh,"
                + "   date_trunc('minute', event_time) AS window_start"
                + "   FROM " + Tables.qualified(Tables.POSITIONS)
                + "   WHERE vehicle_id = ? AND event_time >= " + timestampLiteral(from) + " AND event_time < "
                + timestampLiteral(to) + ")"
                + "  WINDOW w AS (PARTITION BY vehicle_id, window_start ORDER BY event_time))"
                + " WHERE window_start IN (" + windowList + ")"
                + " GROUP BY vehicle_id, window_start) AS s"
                + " ON t.vehicle_id = s.vehicle_id AND t.window_start = s.window_start"
                + " WHEN MATCHED AND (t.positions <> s.positions OR abs(t.distance_m - s.distance_m) > 1e-6"
                + "  OR abs(t.avg_speed_kmh - s.avg_speed_kmh) > 1e-9 OR t.max_speed_kmh <> s.max_speed_kmh"
                + "  OR abs(t.seconds_stopped - s.seconds_stopped) > 1e-6)"
                + " THEN UPDATE SET window_end = s.window_end, positions = s.positions, distance_m = s.distance_m,"
                + "  avg_speed_kmh = s.avg_speed_kmh, max_speed_kmh = s.max_speed_kmh,"
                + "  seconds_stopped = s.seconds_stopped, computed_at = current_timestamp"
                + " WHEN NOT MATCHED THEN INSERT (vehicle_id, window_start, window_end, positions, distance_m,"
                + "  avg_speed_kmh, max_speed_kmh, seconds_stopped, computed_at)"
                + " VALUES (s.vehicle_id, s.window_start, s.window_end, s.positions, s.distance_m, s.avg_speed_kmh,"
                + "  s.max_speed_kmh, s.seconds_stopped, current_timestamp)";
    }

    private static String timestampLiteral(Instant instant) {
        return "TIMESTAMP '" + instant.toString().replace('T', ' ').replace("Z", " UTC") + "'";
    }

    private Connection connect() throws SQLException {
        return connections.withSource("fleet-backfill").connect();
    }
}
