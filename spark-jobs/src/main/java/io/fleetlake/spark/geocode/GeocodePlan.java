package io.fleetlake.spark.geocode;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Which part of {@code fleet.positions} a run reads, decided from the table's snapshot history and the snapshot the
 * previous run processed up to.
 *
 * <ul>
 *   <li>{@link Mode#UP_TO_DATE}: no snapshot since the last run; nothing is read or written.
 *   <li>{@link Mode#INCREMENTAL}: an Iceberg incremental read of the rows appended between the last processed snapshot
 *       (exclusive) and the current one (inclusive). Only {@code append} snapshots add rows to it. {@code replace}
 *       snapshots (compaction) rewrite rows already geocoded and {@code delete} snapshots (retention) remove rows, so
 *       both add nothing to read; a deleted position's place stays in {@code position_places}, where the view's join
 *       no longer reaches it, until a full run removes it.
 *   <li>{@link Mode#FULL}: every row of the current snapshot, merged into the places (a row whose coordinates or
 *       gazetteer changed is replaced, places of positions that no longer exist are deleted). Chosen on request, on
 *       the first run, and whenever an incremental read could miss rows: the last processed snapshot is no longer in
 *       the current snapshot's history (expired by maintenance, or the table was rolled back), or an {@code overwrite}
 *       snapshot since then added rows (an incremental read sees appends only).
 * </ul>
 *
 * @param mode what the run does
 * @param fromExclusive the snapshot the incremental read starts after; empty unless {@link Mode#INCREMENTAL}
 * @param toInclusive the snapshot the run reads up to (the current one when planned); empty when the table has none
 * @param newSnapshots snapshots of the current history after the last processed one (all kept ones when unknown)
 * @param appendSnapshots how many of them are appends
 * @param reason why this mode, for the log and the summary
 */
public record GeocodePlan(
        Mode mode,
        OptionalLong fromExclusive,
        OptionalLong toInclusive,
        int newSnapshots,
        int appendSnapshots,
        String reason) {
    /** What a run does. */
    public enum Mode {
        UP_TO_DATE,
        INCREMENTAL,
        FULL
    }

    public GeocodePlan {
        requireNonNull(mode, "mode is null");
        requireNonNull(fromExclusive, "fromExclusive is null");
        requireNonNull(toInclusive, "toInclusive is null");
        requireNonNull(reason, "reason is null");
    }

    /**
     * @param positions {@code fleet.positions}, refreshed
     * @param lastProcessed the snapshot the previous run processed up to, if any
     * @param since also reread the snapshots committed at or after this instant
     * @param full reread everything
     */
    public static GeocodePlan of(Table positions, OptionalLong lastProcessed, Optional<Instant> since, boolean full) {
        requireNonNull(positions, "positions is null");
        requireNonNull(lastProcessed, "lastProcessed is null");
        requireNonNull(since, "since is null");
        Snapshot current = positions.currentSnapshot();
        if (current == null) {
            return new GeocodePlan(
                    Mode.UP_TO_DATE, OptionalLong.empty(), OptionalLong.empty(), 0, 0, "fleet.positions is empty");
        }
        long to = current.snapshotId();
        if (full) {
            return full(positions, to, "a full run was asked for");
        }
        OptionalLong start = lastProcessed;
        if (since.isPresent()) {
            Optional<Snapshot> before = newestAncestorBefore(positions, since.get());
            if (before.isEmpty()) {
                return full(positions, to, "no snapshot kept was committed before " + since.get());
            }
            start = olderOf(positions, start, before.get().snapshotId());
        }
        if (start.isEmpty()) {
            return full(positions, to, "first run: no processed snapshot is recorded");
        }
        long from = start.getAsLong();
        if (from == to) {
            return new GeocodePlan(
                    Mode.UP_TO_DATE, OptionalLong.empty(), OptionalLong.of(to), 0, 0, "no snapshot since " + from);
        }
        if (!SnapshotUtil.isAncestorOf(positions, to, from)) {
            return full(
                    positions,
                    to,
                    "snapshot " + from + " is no longer in the history of the current snapshot (expired or rolled"
                            + " back)");
        }
        List<Snapshot> newer = new ArrayList<>();
        SnapshotUtil.ancestorsBetween(positions, to, from).forEach(newer::add);
        int appends = 0;
        for (Snapshot snapshot : newer) {
            if (DataOperations.APPEND.equals(snapshot.operation())) {
                appends++;
            } else if (DataOperations.OVERWRITE.equals(snapshot.operation()) && addedRecords(snapshot) > 0) {
                return full(positions, to, "snapshot " + snapshot.snapshotId() + " overwrote rows");
            }
        }
        return new GeocodePlan(
                Mode.INCREMENTAL,
                OptionalLong.of(from),
                OptionalLong.of(to),
                newer.size(),
                appends,
                "rows appended after snapshot " + from);
    }

    private static GeocodePlan full(Table positions, long to, String reason) {
        int snapshots = 0;
        int appends = 0;
        for (Snapshot snapshot : SnapshotUtil.ancestorsOf(to, positions::snapshot)) {
            snapshots++;
            if (DataOperations.APPEND.equals(snapshot.operation())) {
                appends++;
            }
        }
        return new GeocodePlan(Mode.FULL, OptionalLong.empty(), OptionalLong.of(to), snapshots, appends, reason);
    }

    private static Optional<Snapshot> newestAncestorBefore(Table positions, Instant since) {
        for (Snapshot snapshot : SnapshotUtil.currentAncestors(positions)) {
            if (snapshot.timestampMillis() < since.toEpochMilli()) {
                return Optional.of(snapshot);
            }
        }
        return Optional.empty();
    }

    /** Of two snapshots of the current history, the one committed first; a lone candidate otherwise. */
    private static OptionalLong olderOf(Table positions, OptionalLong recorded, long candidate) {
        if (recorded.isEmpty()) {
            return OptionalLong.of(candidate);
        }
        long last = recorded.getAsLong();
        return SnapshotUtil.isAncestorOf(positions, last, candidate) ? OptionalLong.of(candidate) : recorded;
    }

    private static long addedRecords(Snapshot snapshot) {
        String added = snapshot.summary().get(SnapshotSummary.ADDED_RECORDS_PROP);
        return added == null ? 0 : Long.parseLong(added);
    }
}
