package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What one snapshot of a fleet table did. The late-arrival fields are only computed for {@code fleet.positions}.
 *
 * @param snapshotId the snapshot
 * @param parentId its parent; empty for the table's first snapshot
 * @param committedAt when it was committed
 * @param operation {@code append}, {@code overwrite}, {@code replace} or {@code delete}
 * @param addedRecords records it added, from its summary
 * @param deletedRecords records it deleted, from its summary
 * @param totalRecords records in the table after it, from its summary
 * @param liveRecords rows it added that are still in the current table (positions only)
 * @param lateRecords of those, the rows whose event time was older than the commit by more than the threshold
 * @param oldestEventTime the oldest event time among those rows: far in the past for a backfill
 */
public record SnapshotAddition(
        long snapshotId,
        OptionalLong parentId,
        Instant committedAt,
        String operation,
        long addedRecords,
        long deletedRecords,
        long totalRecords,
        OptionalLong liveRecords,
        OptionalLong lateRecords,
        Optional<Instant> oldestEventTime) {
    public SnapshotAddition {
        requireNonNull(parentId, "parentId is null");
        requireNonNull(committedAt, "committedAt is null");
        requireNonNull(operation, "operation is null");
        requireNonNull(liveRecords, "liveRecords is null");
        requireNonNull(lateRecords, "lateRecords is null");
        requireNonNull(oldestEventTime, "oldestEventTime is null");
    }
}
