package io.fleetlake.dashboard.fakes;

import io.fleetlake.dashboard.history.HistoryReader;
import io.fleetlake.dashboard.history.ReplayQuery;
import io.fleetlake.dashboard.history.SnapshotInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The Iceberg history as fixed rows and snapshots; remembers the queries it was asked. */
public final class FakeHistory implements HistoryReader {
    private final List<Map<String, Object>> rows = new ArrayList<>();
    private final List<SnapshotInfo> snapshots = new ArrayList<>();
    private final List<ReplayQuery> queries = new ArrayList<>();

    public FakeHistory row(Map<String, Object> row) {
        rows.add(row);
        return this;
    }

    public FakeHistory snapshot(SnapshotInfo snapshot) {
        snapshots.add(snapshot);
        return this;
    }

    public List<ReplayQuery> queries() {
        return List.copyOf(queries);
    }

    @Override
    public List<Map<String, Object>> rows(ReplayQuery query) {
        queries.add(query);
        return List.copyOf(rows);
    }

    @Override
    public List<SnapshotInfo> recentSnapshots() {
        return List.copyOf(snapshots);
    }

    @Override
    public Optional<SnapshotInfo> snapshot(long snapshotId) {
        return snapshots.stream()
                .filter(snapshot -> snapshot.snapshotId() == snapshotId)
                .findFirst();
    }
}
