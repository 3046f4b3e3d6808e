package io.fleetlake.dashboard.history;

import static java.util.Objects.requireNonNull;

import io.fleetlake.dashboard.Redaction;
import io.fleetlake.dashboard.error.DashboardError;
import io.fleetlake.dashboard.error.DashboardException;
import io.fleetlake.model.Tables;
import io.fleetlake.model.trino.TrinoConnectionFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@link HistoryReader} over Trino JDBC ({@code io.trino:trino-jdbc}). Each call opens its own connection: replays are
 * rare and a Trino JDBC connection is only an HTTP client, so there is no pool to size.
 */
public final class TrinoHistoryReader implements HistoryReader {
    /** How many snapshots the picker offers; at one commit per 10 s checkpoint, about 17 minutes. */
    static final int RECENT_SNAPSHOT_COUNT = 100;

    static final Duration QUERY_TIMEOUT = Duration.ofMinutes(1);

    private static final String SNAPSHOTS_TABLE = Tables.NAMESPACE + ".\"" + Tables.POSITIONS + "$snapshots\"";
    private static final String SNAPSHOT_COLUMNS = "SELECT snapshot_id, committed_at, operation,"
            + " element_at(summary, 'added-records') AS added_records,"
            + " element_at(summary, 'total-records') AS total_records FROM " + SNAPSHOTS_TABLE;
    static final String RECENT_SNAPSHOTS_SQL =
            SNAPSHOT_COLUMNS + " ORDER BY committed_at DESC LIMIT " + RECENT_SNAPSHOT_COUNT;
    static final String SNAPSHOT_SQL = SNAPSHOT_COLUMNS + " WHERE snapshot_id = ?";

    private final TrinoConnectionFactory connections;

    /** @param connections the dashboard's read-only Trino user ({@code fleet-dashboard}) */
    public TrinoHistoryReader(TrinoConnectionFactory connections) {
        this.connections = requireNonNull(connections, "connections is null");
    }

    @Override
    public List<Map<String, Object>> rows(ReplayQuery query) {
        requireNonNull(query, "query is null");
        try (Connection connection = connect();
                PreparedStatement statement = connection.prepareStatement(query.sql())) {
            for (int index = 0; index < query.parameters().size(); index++) {
                statement.setString(index + 1, query.parameters().get(index));
            }
            statement.setQueryTimeout((int) QUERY_TIMEOUT.toSeconds());
            try (ResultSet result = statement.executeQuery()) {
                return readRows(result);
            }
        } catch (SQLException e) {
            throw failed("run the replay query", e);
        }
    }

    @Override
    public List<SnapshotInfo> recentSnapshots() {
        try (Connection connection = connect();
                PreparedStatement statement = connection.prepareStatement(RECENT_SNAPSHOTS_SQL)) {
            statement.setQueryTimeout((int) QUERY_TIMEOUT.toSeconds());
            try (ResultSet result = statement.executeQuery()) {
                return readRows(result).stream()
                        .map(TrinoHistoryReader::snapshotOf)
                        .toList();
            }
        } catch (SQLException e) {
            throw failed("read the snapshot list", e);
        }
    }

    @Override
    public Optional<SnapshotInfo> snapshot(long snapshotId) {
        try (Connection connection = connect();
                PreparedStatement statement = connection.prepareStatement(SNAPSHOT_SQL)) {
            statement.setLong(1, snapshotId);
            statement.setQueryTimeout((int) QUERY_TIMEOUT.toSeconds());
            try (ResultSet result = statement.executeQuery()) {
                return readRows(result).stream().findFirst().map(TrinoHistoryReader::snapshotOf);
            }
        } catch (SQLException e) {
            throw failed("look up snapshot " + snapshotId, e);
        }
    }

    /** Rows as column label (lower case) to value; every timestamp as an {@code Instant}. */
    private static List<Map<String, Object>> readRows(ResultSet result) throws SQLException {
        ResultSetMetaData metadata = result.getMetaData();
        int columns = metadata.getColumnCount();
        List<Map<String, Object>> rows = new ArrayList<>();
        while (result.next()) {
            Map<String, Object> row = new HashMap<>();
            for (int column = 1; column <= columns; column++) {
                String label = metadata.getColumnLabel(column).toLowerCase(Locale.ROOT);
                row.put(label, value(result, metadata, column));
            }
            rows.add(row);
        }
        return rows;
    }

    private static Object value(ResultSet result, ResultSetMetaData metadata, int column) throws SQLException {
        int type = metadata.getColumnType(column);
        if (type == Types.TIMESTAMP_WITH_TIMEZONE || type == Types.TIMESTAMP) {
            Timestamp timestamp = result.getTimestamp(column);
            return timestamp == null ? null : timestamp.toInstant();
        }
        return result.getObject(column);
    }

    static SnapshotInfo snapshotOf(Map<String, Object> row) {
        return new SnapshotInfo(
                ((Number) row.get("snapshot_id")).longValue(),
                (Instant) row.get("committed_at"),
                (String) row.get("operation"),
                count(row.get("added_records")),
                count(row.get("total_records")));
    }

    private static Long count(Object summaryValue) {
        return summaryValue == null ? null : Long.valueOf(summaryValue.toString());
    }

    private Connection connect() throws SQLException {
        return connections.connect();
    }

    private DashboardException failed(String what, SQLException e) {
        return new DashboardException(
                DashboardError.TRINO_UNAVAILABLE,
                "Trino at " + Redaction.jdbcUrl(connections.jdbcUrl()) + " could not " + what + ": " + e.getMessage(),
                e);
    }
}
