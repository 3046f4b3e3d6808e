package io.fleetlake.dashboard.history;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * One snapshot of {@code fleet.positions}, from its {@code $snapshots} metadata table.
 *
 * @param snapshotId the Iceberg snapshot id
 * @param committedAt when it was committed
 * @param operation {@code append}, {@code overwrite}, ...; null when not recorded
 * @param addedRecords rows the commit added, or null when the summary does not say
 * @param totalRecords rows of the table at the snapshot, or null when the summary does not say
 */
public record SnapshotInfo(
        long snapshotId, Instant committedAt, String operation, Long addedRecords, Long totalRecords) {
    public SnapshotInfo {
        requireNonNull(committedAt, "committedAt is null");
    }
}
