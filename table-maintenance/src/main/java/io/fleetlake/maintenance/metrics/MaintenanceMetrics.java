package io.fleetlake.maintenance.metrics;

import static io.fleetlake.model.MaintenanceMetricNames.DATA_FILES;
import static io.fleetlake.model.MaintenanceMetricNames.DELETE_FILES_REMOVED;
import static io.fleetlake.model.MaintenanceMetricNames.FILES_ADDED;
import static io.fleetlake.model.MaintenanceMetricNames.FILES_REWRITTEN;
import static io.fleetlake.model.MaintenanceMetricNames.LAST_RUN_DURATION;
import static io.fleetlake.model.MaintenanceMetricNames.LAST_RUN_SUCCESS;
import static io.fleetlake.model.MaintenanceMetricNames.LAST_RUN_TIMESTAMP;
import static io.fleetlake.model.MaintenanceMetricNames.ORPHANS_REMOVED;
import static io.fleetlake.model.MaintenanceMetricNames.OUTCOME_TAG;
import static io.fleetlake.model.MaintenanceMetricNames.RUNS;
import static io.fleetlake.model.MaintenanceMetricNames.SNAPSHOTS;
import static io.fleetlake.model.MaintenanceMetricNames.SNAPSHOTS_EXPIRED;
import static io.fleetlake.model.MaintenanceMetricNames.TABLE_TAG;
import static java.util.Objects.requireNonNull;

import io.fleetlake.maintenance.run.TableReport;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The maintenance metrics ({@link io.fleetlake.model.MaintenanceMetricNames}) in a registry this object owns. Each
 * table's gauges read the last report recorded for it; counters add up every run.
 */
public final class MaintenanceMetrics {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<String, LastRun> lastRuns = new ConcurrentHashMap<>();

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** The metrics in the Prometheus text format, as the endpoint serves them. */
    public String scrape() {
        return registry.scrape();
    }

    public void record(TableReport report) {
        requireNonNull(report, "report is null");
        String table = report.table().toString();
        Tags tags = Tags.of(TABLE_TAG, table);
        Counter.builder(RUNS)
                .description("Maintenance runs per table and outcome")
                .tags(tags.and(OUTCOME_TAG, report.outcome().name().toLowerCase(Locale.ROOT)))
                .register(registry)
                .increment();
        if (report.dryRun()) {
            return;
        }
        add(FILES_REWRITTEN, tags, report.compaction().filesRewritten(), "Data files replaced by compaction");
        add(FILES_ADDED, tags, report.compaction().filesAdded(), "Data files written by compaction");
        add(
                DELETE_FILES_REMOVED,
                tags,
                report.compaction().danglingDeletesRemoved(),
                "Delete files dropped because they applied to no live data file");
        add(SNAPSHOTS_EXPIRED, tags, report.expiry().snapshotsExpired(), "Snapshots expired");
        add(ORPHANS_REMOVED, tags, report.orphans().removed(), "Orphan files deleted");
        LastRun last = lastRuns.computeIfAbsent(table, name -> register(tags));
        last.endedEpochMillis.set(report.startedAt().plus(report.elapsed()).toEpochMilli());
        last.success.set(report.outcome() == TableReport.Outcome.FAILED ? 0 : 1);
        last.durationMillis.set(report.elapsed().toMillis());
        last.dataFiles.set(report.after().dataFiles());
        last.snapshots.set(report.after().snapshots());
    }

    private void add(String name, Tags tags, long amount, String description) {
        Counter.builder(name)
                .description(description)
                .tags(tags)
                .register(registry)
                .increment(amount);
    }

    private LastRun register(Tags tags) {
        LastRun last = new LastRun();
        gauge(
                LAST_RUN_TIMESTAMP,
                tags,
                last.endedEpochMillis,
                0.001,
                "seconds",
                "When the last run of the table ended");
        gauge(LAST_RUN_SUCCESS, tags, last.success, 1, null, "1 when the last run of the table succeeded, else 0");
        gauge(LAST_RUN_DURATION, tags, last.durationMillis, 0.001, "seconds", "Duration of the last run of the table");
        gauge(DATA_FILES, tags, last.dataFiles, 1, null, "Live data files after the last run");
        gauge(SNAPSHOTS, tags, last.snapshots, 1, null, "Snapshots in the table metadata after the last run");
        return last;
    }

    private void gauge(String name, Tags tags, AtomicLong value, double scale, String unit, String description) {
        Gauge.builder(name, value, held -> held.get() * scale)
                .description(description)
                .baseUnit(unit)
                .tags(tags)
                .strongReference(true)
                .register((MeterRegistry) registry);
    }

    private static final class LastRun {
        private final AtomicLong endedEpochMillis = new AtomicLong();
        private final AtomicLong success = new AtomicLong();
        private final AtomicLong durationMillis = new AtomicLong();
        private final AtomicLong dataFiles = new AtomicLong();
        private final AtomicLong snapshots = new AtomicLong();
    }
}
