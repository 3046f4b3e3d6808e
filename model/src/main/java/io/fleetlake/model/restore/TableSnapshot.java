package io.fleetlake.model.restore;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One snapshot as an Iceberg table's metadata lists it, however it was read (the Iceberg API in the pipeline, the REST
 * catalog's JSON in the stack).
 *
 * @param parentId the snapshot it was committed on top of; empty for the first
 * @param timestampMillis its {@code timestamp-ms}
 */
public record TableSnapshot(
        long snapshotId, Optional<Long> parentId, long timestampMillis, Map<String, String> summary) {
    public TableSnapshot {
        requireNonNull(parentId, "parentId is null");
        summary = Map.copyOf(requireNonNull(summary, "summary is null"));
    }

    /**
     * The Flink commits of the table's current history, newest first: the current snapshot and its ancestors, as far as
     * the metadata still lists them (snapshot expiry drops the oldest), and none of the snapshots that left it (a
     * rollback, another branch). That is the history Iceberg's committer reads too, when it looks up the last
     * checkpoint a job committed.
     *
     * @param currentSnapshotId empty for a table without a snapshot
     */
    public static List<FlinkCommit> flinkCommits(
            String table, Optional<Long> currentSnapshotId, Collection<TableSnapshot> snapshots) {
        requireNonNull(table, "table is null");
        requireNonNull(currentSnapshotId, "currentSnapshotId is null");
        Map<Long, TableSnapshot> byId = new HashMap<>();
        for (TableSnapshot snapshot : snapshots) {
            byId.put(snapshot.snapshotId(), snapshot);
        }
        List<FlinkCommit> commits = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        Optional<Long> next = currentSnapshotId;
        while (next.isPresent() && seen.add(next.get()) && byId.containsKey(next.get())) {
            TableSnapshot snapshot = byId.get(next.get());
            FlinkCommit.of(table, snapshot.snapshotId(), snapshot.timestampMillis(), snapshot.summary())
                    .ifPresent(commits::add);
            next = snapshot.parentId();
        }
        return List.copyOf(commits);
    }
}
