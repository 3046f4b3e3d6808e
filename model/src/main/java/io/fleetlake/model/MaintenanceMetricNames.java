package io.fleetlake.model;

/**
 * Names of the table maintenance service's metrics (module table-maintenance), shared with whoever reads them
 * (Prometheus rules, {@code fleet status}). The service registers them with Micrometer under these names; its
 * Prometheus endpoint serves them with dots as underscores and the suffix Prometheus adds ({@code _total} for
 * counters, {@code _seconds} for times). Every series has the tag {@value #TABLE_TAG} ({@code fleet.positions}, ...).
 */
public final class MaintenanceMetricNames {
    /** Tag naming the table ({@code namespace.table}). */
    public static final String TABLE_TAG = "table";
    /** Tag of {@link #RUNS}: {@code succeeded}, {@code failed} or {@code dry_run}. */
    public static final String OUTCOME_TAG = "outcome";

    /** Counter of maintenance runs per table and outcome: {@code fleet_maintenance_runs_total}. */
    public static final String RUNS = "fleet.maintenance.runs";
    /** Gauge, epoch seconds when the last run of the table ended: {@code fleet_maintenance_last_run_timestamp_seconds}. */
    public static final String LAST_RUN_TIMESTAMP = "fleet.maintenance.last.run.timestamp";
    /** Gauge, 1 when the last run of the table succeeded, 0 when it failed: {@code fleet_maintenance_last_run_success}. */
    public static final String LAST_RUN_SUCCESS = "fleet.maintenance.last.run.success";
    /** Gauge, duration of the last run: {@code fleet_maintenance_last_run_duration_seconds}. */
    public static final String LAST_RUN_DURATION = "fleet.maintenance.last.run.duration";
    /** Counter of data files replaced by compaction: {@code fleet_maintenance_files_rewritten_total}. */
    public static final String FILES_REWRITTEN = "fleet.maintenance.files.rewritten";
    /** Counter of data files compaction wrote: {@code fleet_maintenance_files_added_total}. */
    public static final String FILES_ADDED = "fleet.maintenance.files.added";
    /** Counter of dangling delete files dropped: {@code fleet_maintenance_delete_files_removed_total}. */
    public static final String DELETE_FILES_REMOVED = "fleet.maintenance.delete.files.removed";
    /** Counter of expired snapshots: {@code fleet_maintenance_snapshots_expired_total}. */
    public static final String SNAPSHOTS_EXPIRED = "fleet.maintenance.snapshots.expired";
    /** Counter of orphan files deleted: {@code fleet_maintenance_orphans_removed_total}. */
    public static final String ORPHANS_REMOVED = "fleet.maintenance.orphans.removed";
    /** Gauge, live data files after the last run: {@code fleet_maintenance_data_files}. */
    public static final String DATA_FILES = "fleet.maintenance.data.files";
    /** Gauge, snapshots in the metadata after the last run: {@code fleet_maintenance_snapshots}. */
    public static final String SNAPSHOTS = "fleet.maintenance.snapshots";

    private MaintenanceMetricNames() {}
}
