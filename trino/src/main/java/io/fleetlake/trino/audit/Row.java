package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The current row of a Trino result, read by column label. Queries that read a snapshot with {@code SELECT *} get the
 * columns of that snapshot's schema, so optional readers return empty for a column the result does not have.
 */
final class Row {
    private final ResultSet result;
    private final Set<String> labels;

    private Row(ResultSet result, Set<String> labels) {
        this.result = result;
        this.labels = labels;
    }

    static Row over(ResultSet result) throws SQLException {
        requireNonNull(result, "result is null");
        ResultSetMetaData metadata = result.getMetaData();
        Set<String> labels = new HashSet<>();
        for (int column = 1; column <= metadata.getColumnCount(); column++) {
            labels.add(metadata.getColumnLabel(column).toLowerCase(Locale.ROOT));
        }
        return new Row(result, labels);
    }

    boolean has(String label) {
        return labels.contains(label);
    }

    String string(String label) throws SQLException {
        return required(label, result.getString(label));
    }

    Optional<String> optionalString(String label) throws SQLException {
        return has(label) ? Optional.ofNullable(result.getString(label)) : Optional.empty();
    }

    long longValue(String label) throws SQLException {
        long value = result.getLong(label);
        if (result.wasNull()) {
            throw missing(label);
        }
        return value;
    }

    OptionalLong optionalLong(String label) throws SQLException {
        if (!has(label)) {
            return OptionalLong.empty();
        }
        long value = result.getLong(label);
        return result.wasNull() ? OptionalLong.empty() : OptionalLong.of(value);
    }

    double doubleValue(String label) throws SQLException {
        double value = result.getDouble(label);
        if (result.wasNull()) {
            throw missing(label);
        }
        return value;
    }

    OptionalDouble optionalDouble(String label) throws SQLException {
        if (!has(label)) {
            return OptionalDouble.empty();
        }
        double value = result.getDouble(label);
        return result.wasNull() ? OptionalDouble.empty() : OptionalDouble.of(value);
    }

    /** A {@code timestamp with time zone} column as an instant (trino-jdbc keeps the instant in the Timestamp). */
    Instant instant(String label) throws SQLException {
        return optionalInstant(label).orElseThrow(() -> missing(label));
    }

    Optional<Instant> optionalInstant(String label) throws SQLException {
        if (!has(label)) {
            return Optional.empty();
        }
        Timestamp timestamp = result.getTimestamp(label);
        return Optional.ofNullable(timestamp).map(Timestamp::toInstant);
    }

    private static <T> T required(String label, T value) {
        if (value == null) {
            throw missing(label);
        }
        return value;
    }

    private static AuditException missing(String label) {
        return new AuditException(
                AuditError.INTERNAL, "Trino returned no value for column " + label + ", which the audit requires");
    }
}
