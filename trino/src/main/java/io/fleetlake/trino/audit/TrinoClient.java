package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs audit statements over trino-jdbc. Each call opens its own connection: audits are occasional, and a Trino JDBC
 * connection is an HTTP client without server-side state to reuse. Sessions run in UTC so that {@code date_trunc}
 * buckets are UTC hours and days.
 */
final class TrinoClient {
    private final AuditConfig config;

    TrinoClient(AuditConfig config) {
        this.config = requireNonNull(config, "config is null");
    }

    /** Reads one row of a result. */
    @FunctionalInterface
    interface RowReader<T> {
        T read(Row row) throws SQLException;
    }

    /**
     * Runs the statement and reads every row.
     *
     * @throws TrinoQueryException when Trino fails the query or cannot be reached
     */
    <T> List<T> query(AuditStatement statement, RowReader<T> reader) {
        requireNonNull(statement, "statement is null");
        requireNonNull(reader, "reader is null");
        // UTC sessions: date_trunc buckets are UTC hours and days.
        try (Connection connection = config.trinoConnections().connect(Map.of("timezone", "UTC"));
                PreparedStatement prepared = connection.prepareStatement(statement.sql())) {
            List<Object> parameters = statement.parameters();
            for (int index = 0; index < parameters.size(); index++) {
                Object parameter = parameters.get(index);
                if (parameter instanceof Long number) {
                    prepared.setLong(index + 1, number);
                } else {
                    prepared.setString(index + 1, (String) parameter);
                }
            }
            prepared.setQueryTimeout((int) config.queryTimeout().toSeconds());
            try (ResultSet result = prepared.executeQuery()) {
                Row row = Row.over(result);
                List<T> rows = new ArrayList<>();
                while (result.next()) {
                    rows.add(reader.read(row));
                }
                return rows;
            }
        } catch (SQLException e) {
            throw new TrinoQueryException(statement.name(), TrinoFailure.classify(e), e);
        }
    }

    /** A query failed; {@link #failure()} says why. */
    static final class TrinoQueryException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final transient TrinoFailure failure;

        TrinoQueryException(String statementName, TrinoFailure failure, SQLException cause) {
            super("Audit query " + statementName + " failed: " + failure.trinoMessage(), cause);
            this.failure = requireNonNull(failure, "failure is null");
        }

        TrinoFailure failure() {
            return failure;
        }
    }
}
