package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Turns a classified Trino failure into the one-line message a person can act on. Pure functions, tested with failures
 * classified from recorded Trino messages.
 */
final class AuditErrors {
    private AuditErrors() {}

    /**
     * The oldest snapshot that time travel by instant can reach (of the current snapshot's history, still in the
     * metadata); {@code first} when it has no parent, that is nothing older ever existed.
     */
    record OldestSnapshot(Instant committedAt, boolean first) {
        OldestSnapshot {
            requireNonNull(committedAt, "committedAt is null");
        }
    }

    /**
     * @param failure what went wrong
     * @param trinoUrl the (redacted) JDBC URL, named when Trino is the problem
     * @param table the table the query read
     * @param asOf the state the query asked for
     * @param oldestSnapshot the table's oldest snapshot, consulted only for an instant before it
     */
    static AuditException from(
            TrinoFailure failure,
            String trinoUrl,
            AuditTable table,
            AsOf asOf,
            Supplier<Optional<OldestSnapshot>> oldestSnapshot) {
        requireNonNull(failure, "failure is null");
        requireNonNull(trinoUrl, "trinoUrl is null");
        requireNonNull(table, "table is null");
        requireNonNull(asOf, "asOf is null");
        requireNonNull(oldestSnapshot, "oldestSnapshot is null");
        String tableName = table.qualifiedName();
        return switch (failure.kind()) {
            case UNREACHABLE ->
                new AuditException(
                        AuditError.TRINO_UNREACHABLE,
                        "Cannot reach Trino at " + trinoUrl + " (" + failure.detail()
                                + "): the stack must be running (fleet"
                                + " up, or fleet demo --keep-running), or pass --trino-url");
            case STARTING ->
                new AuditException(
                        AuditError.TRINO_STARTING,
                        "Trino at " + trinoUrl + " is still starting: try again in a few seconds");
            case SNAPSHOT_MISSING ->
                new AuditException(
                        AuditError.SNAPSHOT_NOT_FOUND,
                        "Snapshot " + failure.detail() + " does not exist in " + tableName + " (expired?); use a tag"
                                + " (fleet audit tags) or an instant");
            case REFERENCE_MISSING ->
                new AuditException(
                        AuditError.TAG_NOT_FOUND,
                        "Tag " + failure.detail() + " does not exist in " + tableName
                                + "; list the tags with fleet audit" + " tags, or use a snapshot id or an instant");
            case NO_HISTORY_BEFORE -> beforeFirstSnapshot(failure, tableName, asOf, oldestSnapshot.get());
            case TABLE_MISSING ->
                new AuditException(
                        AuditError.TABLE_NOT_FOUND,
                        failure.detail() + " does not exist in Trino at " + trinoUrl
                                + ": the Iceberg REST catalog creates"
                                + " the fleet tables when it starts (catalog.bootstrap-tables=true), and the Trino catalog"
                                + " must be named iceberg");
            case CATALOG_UNREACHABLE ->
                new AuditException(
                        AuditError.CATALOG_UNREACHABLE,
                        "Trino at " + trinoUrl + " cannot load " + tableName + " from the Iceberg REST catalog ("
                                + failure.detail() + "): the stack must be running (fleet up)");
            case OTHER ->
                new AuditException(
                        AuditError.QUERY_FAILED,
                        "Trino at " + trinoUrl + " failed the audit query: " + failure.detail());
        };
    }

    private static AuditException beforeFirstSnapshot(
            TrinoFailure failure, String tableName, AsOf asOf, Optional<OldestSnapshot> oldest) {
        String instant = asOf instanceof AsOf.InstantVersion version ? Times.iso(version.instant()) : failure.detail();
        if (oldest.isEmpty()) {
            return new AuditException(
                    AuditError.BEFORE_FIRST_SNAPSHOT,
                    tableName + " has no snapshot at or before " + instant + ": it has no snapshot yet");
        }
        String committedAt = Times.iso(oldest.get().committedAt());
        if (oldest.get().first()) {
            return new AuditException(
                    AuditError.BEFORE_FIRST_SNAPSHOT,
                    tableName + " did not exist yet at " + instant + ": its first snapshot was committed at "
                            + committedAt);
        }
        return new AuditException(
                AuditError.BEFORE_FIRST_SNAPSHOT,
                tableName + " has no history at or before " + instant + ": its snapshots before " + committedAt
                        + " expired; use a tag (fleet audit tags) or a later instant");
    }
}
