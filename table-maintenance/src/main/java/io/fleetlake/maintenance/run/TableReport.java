package io.fleetlake.maintenance.run;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * One maintenance run over one table: its state before and after, what each step did, and the failures of steps that
 * did not complete (the other steps still ran).
 */
public record TableReport(
        TableIdentifier table,
        Instant startedAt,
        Duration elapsed,
        boolean dryRun,
        TableState before,
        TableState after,
        StepResults.Compaction compaction,
        StepResults.Manifests manifests,
        StepResults.Expiry expiry,
        StepResults.Orphans orphans,
        List<String> failures) {
    public TableReport {
        requireNonNull(table, "table is null");
        requireNonNull(startedAt, "startedAt is null");
        requireNonNull(elapsed, "elapsed is null");
        requireNonNull(before, "before is null");
        requireNonNull(after, "after is null");
        requireNonNull(compaction, "compaction is null");
        requireNonNull(manifests, "manifests is null");
        requireNonNull(expiry, "expiry is null");
        requireNonNull(orphans, "orphans is null");
        failures = List.copyOf(requireNonNull(failures, "failures is null"));
    }

    public Outcome outcome() {
        if (!failures.isEmpty()) {
            return Outcome.FAILED;
        }
        return dryRun ? Outcome.DRY_RUN : Outcome.SUCCEEDED;
    }

    /** One line for logs and the command line. */
    public String summaryLine() {
        return String.format(
                Locale.ROOT,
                "%s %s in %.1f s: data files %,d -> %,d (%s -> %s), delete files %,d -> %,d, files rewritten %,d into"
                        + " %,d in %,d partitions, dangling deletes removed %,d, manifests %,d -> %,d, snapshots %,d ->"
                        + " %,d (expired %,d, tagged kept %,d), orphans removed %,d (%s)%s",
                table,
                outcome().label(),
                elapsed.toMillis() / 1000.0,
                before.dataFiles(),
                after.dataFiles(),
                bytes(before.dataBytes()),
                bytes(after.dataBytes()),
                before.deleteFiles(),
                after.deleteFiles(),
                compaction.filesRewritten(),
                compaction.filesAdded(),
                compaction.partitions(),
                compaction.danglingDeletesRemoved(),
                before.dataManifests(),
                after.dataManifests(),
                before.snapshots(),
                after.snapshots(),
                expiry.snapshotsExpired(),
                expiry.taggedSnapshotsKept(),
                dryRun ? orphans.found() : orphans.removed(),
                bytes(orphans.bytes()),
                failures.isEmpty() ? "" : "; failed: " + String.join("; ", failures));
    }

    static String bytes(long bytes) {
        if (bytes < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
        }
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }

    public enum Outcome {
        SUCCEEDED("succeeded"),
        FAILED("failed"),
        DRY_RUN("planned (dry run, nothing changed)");

        private final String label;

        Outcome(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }
}
