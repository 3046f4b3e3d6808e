package io.fleetlake.operations.inspect;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Tables;
import io.fleetlake.model.trino.TrinoConnectionFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Questions about the Iceberg history, asked through Trino JDBC. */
public final class TrinoInspector {
    private final TrinoConnectionFactory connections;

    /** @param connections a read-only user's connections, for example {@code settings.trino(TrinoUser.MONITOR)} */
    public TrinoInspector(TrinoConnectionFactory connections) {
        this.connections = requireNonNull(connections, "connections is null");
    }

    public long rowCount(String table) throws SQLException {
        return single("SELECT count(*) FROM " + Tables.qualified(table));
    }

    /** Rows of the table as of a snapshot (time travel with {@code FOR VERSION AS OF}). */
    public long rowCountAtSnapshot(String table, long snapshotId) throws SQLException {
        return single("SELECT count(*) FROM " + Tables.qualified(table) + " FOR VERSION AS OF " + snapshotId);
    }

    public long distinctCount(String table, String columns) throws SQLException {
        return single("SELECT count(*) FROM (SELECT DISTINCT " + columns + " FROM " + Tables.qualified(table) + ")");
    }

    /** The table's snapshots, oldest first, with the number of records each one added. */
    public List<Snapshot> snapshots(String table) throws SQLException {
        String sql = "SELECT snapshot_id, committed_at, element_at(summary, 'added-records'),"
                + " element_at(summary, 'total-records') FROM " + Tables.NAMESPACE + ".\"" + table
                + "$snapshots\" ORDER BY committed_at";
        List<Snapshot> snapshots = new ArrayList<>();
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                snapshots.add(new Snapshot(
                        result.getLong(1),
                        result.getTimestamp(2).toInstant(),
                        parseCount(result.getString(3)),
                        parseCount(result.getString(4))));
            }
        }
        return snapshots;
    }

    /** Runs a query with parameters and returns its rows as strings; for tests and reports. */
    public List<List<String>> query(String sql, Object... parameters) throws SQLException {
        try (Connection connection = connect();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet result = statement.executeQuery()) {
                List<List<String>> rows = new ArrayList<>();
                int columns = result.getMetaData().getColumnCount();
                while (result.next()) {
                    List<String> row = new ArrayList<>(columns);
                    for (int column = 1; column <= columns; column++) {
                        row.add(result.getString(column));
                    }
                    rows.add(row);
                }
                return rows;
            }
        }
    }

    private long single(String sql) throws SQLException {
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getLong(1);
        }
    }

    private Connection connect() throws SQLException {
        return connections.connect();
    }

    private static long parseCount(String value) {
        return value == null ? 0 : Long.parseLong(value);
    }

    /** One Iceberg snapshot as Trino reports it. */
    public record Snapshot(long snapshotId, Instant committedAt, long addedRecords, long totalRecords) {
        public Snapshot {
            requireNonNull(committedAt, "committedAt is null");
        }
    }
}
