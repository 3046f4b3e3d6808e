package io.fleetlake.trino;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.trino.TrinoConnectionFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells whether a Trino coordinator that has finished starting can also run queries. {@code GET /v1/info} says
 * {@code "starting": false} a few seconds before the coordinator's node manager lists the coordinator itself as an
 * active node; a query in that gap fails with "No nodes available to run query". Clients of the stack (the demo report,
 * the bench, the dashboard's replay) must not see that, so readiness waits for an active node.
 */
public final class TrinoActiveNodeCheck {
    private static final Logger LOG = LoggerFactory.getLogger(TrinoActiveNodeCheck.class);
    private static final String ACTIVE_NODES = "SELECT count(*) FROM system.runtime.nodes WHERE state = 'active'";
    private static final int QUERY_TIMEOUT_SECONDS = 10;

    private final TrinoConnectionFactory connections;

    /** @param connections the server's connections as a user that may read {@code system.runtime.nodes} */
    public TrinoActiveNodeCheck(TrinoConnectionFactory connections) {
        this.connections = requireNonNull(connections, "connections is null");
    }

    /** True when the coordinator lists at least one active node; false while it cannot answer or lists none. */
    public boolean hasActiveNode() {
        try (Connection connection = connections.connect();
                Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
            try (ResultSet result = statement.executeQuery(ACTIVE_NODES)) {
                return result.next() && result.getLong(1) > 0;
            }
        } catch (SQLException e) {
            // "No nodes available to run query" is the normal answer for a few seconds after the start.
            LOG.debug("{} cannot run queries yet: {}", connections.serverUri(), e.toString());
            return false;
        }
    }
}
