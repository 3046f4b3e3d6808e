package io.fleetlake.trino;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
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
    private static final String HEALTH_CHECK_USER = "fleet-health-check";
    private static final int QUERY_TIMEOUT_SECONDS = 10;

    private final String jdbcUrl;

    /** @param jdbcUrl the server's JDBC URL, such as {@code jdbc:trino://127.0.0.1:8080} */
    public TrinoActiveNodeCheck(String jdbcUrl) {
        this.jdbcUrl = requireNonNull(jdbcUrl, "jdbcUrl is null");
    }

    /** True when the coordinator lists at least one active node; false while it cannot answer or lists none. */
    public boolean hasActiveNode() {
        Properties properties = new Properties();
        properties.setProperty("user", HEALTH_CHECK_USER);
        try (Connection connection = DriverManager.getConnection(jdbcUrl, properties);
                Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
            try (ResultSet result = statement.executeQuery(ACTIVE_NODES)) {
                return result.next() && result.getLong(1) > 0;
            }
        } catch (SQLException e) {
            // "No nodes available to run query" is the normal answer for a few seconds after the start.
            LOG.debug("{} cannot run queries yet: {}", jdbcUrl, e.toString());
            return false;
        }
    }
}
