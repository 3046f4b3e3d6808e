package io.fleetlake.maintenance.run;

import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;

/**
 * The size of a table's current state, read from the current snapshot's summary and manifest list.
 *
 * @param dataBytes bytes of the live data files
 */
public record TableState(
        long dataFiles, long dataBytes, long deleteFiles, long dataManifests, long deleteManifests, long snapshots) {
    public static final TableState EMPTY = new TableState(0, 0, 0, 0, 0, 0);

    public static TableState of(Table table) {
        Snapshot current = table.currentSnapshot();
        long snapshots = sizeOf(table.snapshots());
        if (current == null) {
            return new TableState(0, 0, 0, 0, 0, snapshots);
        }
        Map<String, String> summary = current.summary();
        long totalBytes = number(summary, SnapshotSummary.TOTAL_FILE_SIZE_PROP);
        return new TableState(
                number(summary, SnapshotSummary.TOTAL_DATA_FILES_PROP),
                totalBytes,
                number(summary, SnapshotSummary.TOTAL_DELETE_FILES_PROP),
                current.dataManifests(table.io()).size(),
                current.deleteManifests(table.io()).size(),
                snapshots);
    }

    private static long number(Map<String, String> summary, String key) {
        String value = summary.get(key);
        return value == null ? 0 : Long.parseLong(value);
    }

    private static long sizeOf(Iterable<?> items) {
        long count = 0;
        for (Object ignored : items) {
            count++;
        }
        return count;
    }
}
