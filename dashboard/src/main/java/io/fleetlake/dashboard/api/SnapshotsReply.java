package io.fleetlake.dashboard.api;

import static java.util.Objects.requireNonNull;

import io.fleetlake.dashboard.history.SnapshotInfo;
import java.time.Instant;
import java.util.List;

/**
 * {@code GET /api/snapshots}: the newest snapshots of {@code fleet.positions}, newest first.
 *
 * @param snapshots the snapshots
 */
record SnapshotsReply(List<Snapshot> snapshots) {
    SnapshotsReply {
        snapshots = List.copyOf(requireNonNull(snapshots, "snapshots is null"));
    }

    static SnapshotsReply of(List<SnapshotInfo> snapshots) {
        return new SnapshotsReply(snapshots.stream().map(Snapshot::of).toList());
    }

    /**
     * One snapshot.
     *
     * @param id the snapshot id as a string: ids exceed the integers JavaScript represents exactly
     * @param committedAt when it was committed
     * @param operation {@code append}, {@code overwrite}, ..., or null
     * @param addedRecords rows the commit added, or null
     * @param totalRecords rows of the table at the snapshot, or null
     */
    record Snapshot(String id, Instant committedAt, String operation, Long addedRecords, Long totalRecords) {
        Snapshot {
            requireNonNull(id, "id is null");
            requireNonNull(committedAt, "committedAt is null");
        }

        static Snapshot of(SnapshotInfo info) {
            return new Snapshot(
                    Long.toString(info.snapshotId()),
                    info.committedAt(),
                    info.operation(),
                    info.addedRecords(),
                    info.totalRecords());
        }
    }
}
