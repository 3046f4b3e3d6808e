package io.fleetlake.stack.it;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.Tables;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.operations.inspect.TrinoInspector;
import io.fleetlake.operations.verify.FixKey;
import io.fleetlake.stack.StackSettings;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a {@link LedgerPublishers} ledger against {@code fleet.positions} through Trino, independently of {@code
 * fleet verify}: every acknowledged position must be exactly one row.
 */
final class LedgerCheck {
    private LedgerCheck() {}

    /** Rows of the vehicles whose id starts with {@code prefix}. */
    static long rows(StackSettings settings, String prefix) throws SQLException {
        return Long.parseLong(new TrinoInspector(settings.trino(TrinoUser.MONITOR))
                .query(
                        "SELECT count(*) FROM " + Tables.qualified(Tables.POSITIONS) + " WHERE vehicle_id LIKE ?",
                        prefix + "%")
                .get(0)
                .get(0));
    }

    /** Every acknowledged position against the rows of its vehicle and event time. */
    static ExactlyOnce exactlyOnce(StackSettings settings, String prefix, Set<FixKey> acknowledged)
            throws SQLException {
        Map<FixKey, Long> rows = rowsPerKey(settings, prefix);
        List<String> missing = new ArrayList<>();
        List<String> duplicated = new ArrayList<>();
        for (FixKey key : acknowledged) {
            long count = rows.getOrDefault(key, 0L);
            if (count == 0) {
                missing.add(key.toString());
            } else if (count > 1) {
                duplicated.add(key + " (" + count + " rows)");
            }
        }
        missing.sort(null);
        duplicated.sort(null);
        return new ExactlyOnce(acknowledged.size(), missing, duplicated);
    }

    private static Map<FixKey, Long> rowsPerKey(StackSettings settings, String prefix) throws SQLException {
        Map<FixKey, Long> rows = new HashMap<>();
        try (Connection connection = settings.trino(TrinoUser.MONITOR)
                        .withSource("ledger-check")
                        .connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT vehicle_id,"
                        + " CAST(round(to_unixtime(event_time) * 1e6) AS bigint), count(*) FROM "
                        + Tables.qualified(Tables.POSITIONS) + " WHERE vehicle_id LIKE '" + prefix
                        + "%' GROUP BY 1, 2")) {
            while (result.next()) {
                rows.put(new FixKey(result.getString(1), result.getLong(2)), result.getLong(3));
            }
        }
        return rows;
    }

    /**
     * @param acknowledged how many positions the broker acknowledged
     * @param missing acknowledged positions without a row, sorted
     * @param duplicated acknowledged positions with more than one row, sorted
     */
    record ExactlyOnce(int acknowledged, List<String> missing, List<String> duplicated) {
        ExactlyOnce {
            missing = List.copyOf(requireNonNull(missing, "missing is null"));
            duplicated = List.copyOf(requireNonNull(duplicated, "duplicated is null"));
        }
    }
}
