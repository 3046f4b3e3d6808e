package io.fleetlake.maintenance.run;

import static java.util.Objects.requireNonNull;

import io.fleetlake.maintenance.MaintenanceConfig;
import io.fleetlake.maintenance.plan.CompactionPolicy;
import io.fleetlake.maintenance.plan.ExpiryPolicy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One maintenance run over one table, in this order: compact small data files (applying delete files), drop delete
 * files left dangling, rewrite manifests, expire snapshots (which deletes what only they used), remove orphan files.
 * Compaction comes first so that the files it replaces are deleted by the expiry once their snapshots age out; a step
 * that fails (after its conflict retries) is reported and the next steps still run.
 */
public final class TableMaintainer {
    private static final Logger LOG = LoggerFactory.getLogger(TableMaintainer.class);
    private static final Duration CONFLICT_BACKOFF = Duration.ofSeconds(2);

    private final Catalog catalog;
    private final Clock clock;
    private final DataCompaction compaction;
    private final DanglingDeleteRemoval danglingDeletes;
    private final ManifestRewrite manifests;
    private final SnapshotExpiry expiry;
    private final OrphanRemoval orphans;
    private final ConflictRetries retries;

    public TableMaintainer(Catalog catalog, MaintenanceConfig config, Clock clock, ExecutorService deletes) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.clock = requireNonNull(clock, "clock is null");
        requireNonNull(config, "config is null");
        this.compaction = new DataCompaction(new CompactionPolicy(
                config.targetFileSizeBytes(), config.minInputFiles(), config.deleteFileThreshold()));
        this.danglingDeletes = new DanglingDeleteRemoval();
        this.manifests = new ManifestRewrite(config.manifestRewriteMinCount());
        this.expiry = new SnapshotExpiry(
                new ExpiryPolicy(config.snapshotRetention(), config.retainLast()),
                requireNonNull(deletes, "deletes is null"));
        this.orphans = new OrphanRemoval(config.orphanMinAge());
        this.retries = new ConflictRetries(config.commitAttempts(), CONFLICT_BACKOFF);
    }

    /** Runs every step on the table; never throws for a failing step, which is reported in the result. */
    public TableReport maintain(TableIdentifier identifier, boolean dryRun, Progress progress) {
        requireNonNull(identifier, "identifier is null");
        requireNonNull(progress, "progress is null");
        Instant startedAt = clock.instant();
        long startNanos = System.nanoTime();
        List<String> failures = new ArrayList<>();
        Table table;
        try {
            table = catalog.loadTable(identifier);
        } catch (RuntimeException e) {
            LOG.error("Cannot load {} for maintenance", identifier, e);
            failures.add("cannot load the table: " + e.getMessage());
            return new TableReport(
                    identifier,
                    startedAt,
                    Duration.ofNanos(System.nanoTime() - startNanos),
                    dryRun,
                    TableState.EMPTY,
                    TableState.EMPTY,
                    StepResults.Compaction.NONE,
                    StepResults.Manifests.NONE,
                    StepResults.Expiry.NONE,
                    StepResults.Orphans.NONE,
                    failures);
        }
        progress.step(identifier + (dryRun ? ": planning (dry run)" : ": maintaining"));
        TableState before;
        try {
            before = TableState.of(table);
        } catch (RuntimeException e) {
            LOG.error("Cannot read the state of {}", identifier, e);
            failures.add("cannot read the table: " + e.getMessage());
            before = TableState.EMPTY;
        }
        StepResults.Compaction compacted = step(identifier, "compaction", failures, StepResults.Compaction.NONE, () -> {
            StepResults.Compaction result = compaction.run(table, dryRun, progress);
            long dangling = danglingDeletes.run(table, dryRun);
            if (dangling > 0) {
                progress.step(String.format(
                        Locale.ROOT, "  dangling delete files %s: %,d", dryRun ? "to drop" : "dropped", dangling));
            }
            return new StepResults.Compaction(
                    result.groups(),
                    result.partitions(),
                    result.filesRewritten(),
                    result.bytesRewritten(),
                    result.filesAdded(),
                    result.bytesAdded(),
                    dangling);
        });
        StepResults.Manifests rewritten =
                step(identifier, "manifest rewrite", failures, StepResults.Manifests.NONE, () -> {
                    StepResults.Manifests result = manifests.run(table, dryRun);
                    progress.step(String.format(
                            Locale.ROOT,
                            "  manifests: %,d%s",
                            result.before(),
                            result.rewritten() ? " -> " + result.after() : " (left as they are)"));
                    return result;
                });
        StepResults.Expiry expired = step(identifier, "snapshot expiry", failures, StepResults.Expiry.NONE, () -> {
            StepResults.Expiry result = expiry.run(table, clock.instant(), dryRun);
            progress.step(String.format(
                    Locale.ROOT,
                    "  snapshots %s: %,d (kept %,d, of them tagged audit-*: %,d)%s",
                    dryRun ? "to expire" : "expired",
                    result.snapshotsExpired(),
                    result.snapshotsKept(),
                    result.taggedSnapshotsKept(),
                    result.refsRemoved().isEmpty() ? "" : "; refs past their retention: " + result.refsRemoved()));
            return result;
        });
        StepResults.Orphans removed = step(identifier, "orphan removal", failures, StepResults.Orphans.NONE, () -> {
            StepResults.Orphans result = orphans.run(table, clock.instant(), dryRun);
            progress.step(String.format(
                    Locale.ROOT,
                    "  orphan files %s: %,d (%s)",
                    dryRun ? "to remove" : "removed",
                    dryRun ? result.found() : result.removed(),
                    TableReport.bytes(result.bytes())));
            return result;
        });
        TableState after = before;
        try {
            table.refresh();
            after = TableState.of(table);
        } catch (RuntimeException e) {
            LOG.error("Cannot read {} after its maintenance", identifier, e);
            failures.add("reading the table after maintenance: " + e.getMessage());
        }
        TableReport report = new TableReport(
                identifier,
                startedAt,
                Duration.ofNanos(System.nanoTime() - startNanos),
                dryRun,
                before,
                after,
                compacted,
                rewritten,
                expired,
                removed,
                failures);
        if (report.outcome() == TableReport.Outcome.FAILED) {
            LOG.warn("Maintenance of {}", report.summaryLine());
        } else {
            LOG.info("Maintenance of {}", report.summaryLine());
        }
        return report;
    }

    private <T> T step(TableIdentifier table, String name, List<String> failures, T nothingDone, Supplier<T> body) {
        try {
            return retries.run(name + " of " + table, body);
        } catch (RuntimeException e) {
            LOG.error("The {} of {} failed; the other steps still run", name, table, e);
            failures.add(name + ": " + e.getMessage());
            return nothingDone;
        }
    }
}
