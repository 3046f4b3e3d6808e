package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Builds the statements of the audit SQL library: which file, which placeholders, which parameters in which order.
 * Arguments are validated by {@link AuditQueries}; this class only renders.
 */
final class AuditStatements {
    static final String TRACK = "track";
    static final String WHERE_AT = "where-at";
    static final String SNAPSHOTS = "snapshots";
    static final String LATE_ARRIVALS = "late-arrivals";
    static final String REJECTIONS_BY_REASON = "rejections-by-reason";
    static final String VEHICLE_EXISTS = "vehicle-exists";
    static final String VEHICLE_SUGGESTIONS = "vehicle-suggestions";
    static final String OLDEST_SNAPSHOT = "oldest-snapshot";

    /** Every SQL file of the library, for tests and the README. */
    static final List<String> ALL = List.of(
            TRACK,
            WHERE_AT,
            SNAPSHOTS,
            LATE_ARRIVALS,
            REJECTIONS_BY_REASON,
            VEHICLE_EXISTS,
            VEHICLE_SUGGESTIONS,
            OLDEST_SNAPSHOT);

    private AuditStatements() {}

    static AuditStatement track(String vehicleId, Instant from, Instant to, AsOf asOf) {
        requireNonNull(asOf, "asOf is null");
        return statement(
                TRACK,
                Map.of(SqlTemplate.AS_OF, asOf.clause()),
                List.of(requireNonNull(vehicleId, "vehicleId is null"), Times.iso(from), Times.iso(to)));
    }

    static AuditStatement whereAt(String vehicleId, Instant at, Duration lookback, AsOf knownAt) {
        requireNonNull(knownAt, "knownAt is null");
        return statement(
                WHERE_AT,
                Map.of(SqlTemplate.AS_OF, knownAt.clause()),
                List.of(requireNonNull(vehicleId, "vehicleId is null"), Times.iso(at.minus(lookback)), Times.iso(at)));
    }

    static AuditStatement snapshots(AuditTable table, Instant since) {
        return statement(SNAPSHOTS, Map.of(SqlTemplate.TABLE, table.tableName()), List.of(Times.iso(since)));
    }

    static AuditStatement lateArrivals(Instant since, Duration threshold) {
        return statement(LATE_ARRIVALS, Map.of(), List.of(Times.iso(since), threshold.toMillis()));
    }

    static AuditStatement rejectionsByReason(Instant from, Instant to, RejectionBucket bucket) {
        return statement(REJECTIONS_BY_REASON, Map.of(), List.of(bucket.unit(), Times.iso(from), Times.iso(to)));
    }

    static AuditStatement vehicleExists(String vehicleId) {
        return statement(VEHICLE_EXISTS, Map.of(), List.of(vehicleId));
    }

    static AuditStatement vehicleSuggestions(String vehicleId) {
        return statement(VEHICLE_SUGGESTIONS, Map.of(), List.of(likePrefix(vehicleId), vehicleId, vehicleId));
    }

    static AuditStatement oldestSnapshot(AuditTable table) {
        return statement(OLDEST_SNAPSHOT, Map.of(SqlTemplate.TABLE, table.tableName()), List.of());
    }

    /**
     * A LIKE pattern for ids that share the leading non-digit part of the id ({@code bus-} for {@code bus-42}), or its
     * first two characters when it starts with a digit; LIKE wildcards in the id are escaped with a backslash.
     */
    static String likePrefix(String vehicleId) {
        int firstDigit = 0;
        while (firstDigit < vehicleId.length() && !Character.isDigit(vehicleId.charAt(firstDigit))) {
            firstDigit++;
        }
        String prefix = firstDigit > 0
                ? vehicleId.substring(0, firstDigit)
                : vehicleId.substring(0, Math.min(2, vehicleId.length()));
        return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
    }

    private static AuditStatement statement(String name, Map<String, String> placeholders, List<Object> parameters) {
        return new AuditStatement(name, SqlTemplate.load(name).render(placeholders), parameters);
    }
}
