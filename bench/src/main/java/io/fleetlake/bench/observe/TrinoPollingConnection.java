package io.fleetlake.bench.observe;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Tables;
import io.fleetlake.model.trino.TrinoConnectionFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Trino JDBC over one connection that is kept open between polls (opening one per poll would cost the bench CPU the
 * measured pipeline needs), opened again after a failure such as a Trino restart.
 */
public final class TrinoPollingConnection implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TrinoPollingConnection.class);

    private static final Duration QUERYABLE_POLL = Duration.ofMillis(500);

    private final TrinoConnectionFactory connections;
    private Connection connection;

    /** @param connections a read-only user's connections (the bench reads; it writes through the catalog) */
    public TrinoPollingConnection(TrinoConnectionFactory connections) {
        this.connections = requireNonNull(connections, "connections is null").withSource("fleet-bench");
    }

    /** Runs a query and maps every row. */
    public synchronized <T> List<T> query(String sql, RowMapper<T> mapper) throws SQLException {
        try (Statement statement = connection().createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            List<T> rows = new ArrayList<>();
            while (result.next()) {
                rows.add(mapper.map(result));
            }
            return rows;
        } catch (SQLException e) {
            closeQuietly();
            throw e;
        }
    }

    public long single(String sql) throws SQLException {
        List<Long> values = query(sql, result -> result.getLong(1));
        if (values.size() != 1) {
            throw new SQLException("Expected one row from " + sql + ", got " + values.size());
        }
        return values.get(0);
    }

    /**
     * Waits until Trino schedules queries on a node: right after a start it reports healthy, and even answers {@code
     * SELECT 1} on the coordinator, before its node is active, and table scans fail with "No nodes available to run
     * query". The node list is a system table: reading it warms up no connector.
     */
    public void awaitActiveNode(Duration timeout) throws InterruptedException, SQLException {
        Instant deadline = Instant.now().plus(timeout);
        String lastAnswer = "no answer yet";
        while (true) {
            try {
                long active = single("SELECT count(*) FROM system.runtime.nodes WHERE state = 'active'");
                if (active > 0) {
                    return;
                }
                lastAnswer = "no active node";
            } catch (SQLException e) {
                lastAnswer = e.getMessage();
                LOG.debug("Trino does not list its nodes yet", e);
            }
            if (Instant.now().isAfter(deadline)) {
                throw new SQLException(
                        "Trino had no active node " + timeout.toSeconds() + " s after its start (" + lastAnswer + ")");
            }
            TimeUnit.MILLISECONDS.sleep(QUERYABLE_POLL.toMillis());
        }
    }

    /** Whether a query failed only because Trino had no node to run it on yet (it ran nothing). */
    public static boolean isNoNodesAvailable(SQLException failure) {
        return failure.getMessage() != null && failure.getMessage().contains("No nodes available to run query");
    }

    /** The table's newest snapshot, if it has one. */
    public Optional<Snapshot> latestSnapshot(String table) throws SQLException {
        List<Snapshot> snapshots = query(
                "SELECT snapshot_id, committed_at, element_at(summary, 'total-records') FROM " + Tables.NAMESPACE
                        + ".\"" + table + "$snapshots\" ORDER BY committed_at DESC LIMIT 1",
                result -> new Snapshot(
                        result.getLong(1),
                        result.getTimestamp(2).toInstant(),
                        result.getString(3) == null ? 0 : Long.parseLong(result.getString(3))));
        return snapshots.stream().findFirst();
    }

    /**
     * The first snapshot of the table committed after {@code after} (by commit time) that holds at least {@code rows}
     * rows, if one does. A poll of {@link #latestSnapshot} can see a later snapshot than the one that made the rows
     * visible; this asks the table's history, between the last poll that saw fewer rows and the one that saw enough.
     */
    public Optional<Snapshot> firstSnapshotHolding(String table, long rows, Instant after) throws SQLException {
        List<Snapshot> snapshots = query(
                "SELECT snapshot_id, committed_at, element_at(summary, 'total-records') FROM " + Tables.NAMESPACE
                        + ".\"" + table + "$snapshots\" WHERE CAST(element_at(summary, 'total-records') AS bigint) >= "
                        + rows + " AND committed_at > from_iso8601_timestamp('" + after + "') ORDER BY committed_at"
                        + " LIMIT 1",
                result -> new Snapshot(
                        result.getLong(1), result.getTimestamp(2).toInstant(), Long.parseLong(result.getString(3))));
        return snapshots.stream().findFirst();
    }

    private Connection connection() throws SQLException {
        if (connection == null) {
            connection = connections.connect();
        }
        return connection;
    }

    private void closeQuietly() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // The connection is replaced because it failed; that its close fails too changes nothing.
                LOG.debug("Closing the Trino connection failed", e);
            }
            connection = null;
        }
    }

    @Override
    public synchronized void close() {
        closeQuietly();
    }

    /** Maps the current row of a result. */
    @FunctionalInterface
    public interface RowMapper<T> {
        T map(ResultSet result) throws SQLException;
    }

    /** One Iceberg snapshot: its id, when it was committed, and how many rows the table held then. */
    public record Snapshot(long snapshotId, Instant committedAt, long totalRecords) {
        public Snapshot {
            requireNonNull(committedAt, "committedAt is null");
        }
    }
}
