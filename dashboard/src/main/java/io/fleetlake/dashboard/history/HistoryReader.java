package io.fleetlake.dashboard.history;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the Iceberg history of the fleet. Implementations are thread-safe and throw
 * {@link io.fleetlake.dashboard.error.DashboardException} with
 * {@link io.fleetlake.dashboard.error.DashboardError#TRINO_UNAVAILABLE} when the query engine fails.
 */
public interface HistoryReader {
    /** The rows {@code query} selects, each as column name (lower case) to value; timestamps as {@code Instant}. */
    List<Map<String, Object>> rows(ReplayQuery query);

    /** The newest snapshots of {@code fleet.positions}, newest first. */
    List<SnapshotInfo> recentSnapshots();

    /** One snapshot of {@code fleet.positions}; empty when it does not exist (never did, or expired). */
    Optional<SnapshotInfo> snapshot(long snapshotId);
}
