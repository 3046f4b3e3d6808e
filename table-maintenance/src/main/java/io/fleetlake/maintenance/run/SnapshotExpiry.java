package io.fleetlake.maintenance.run;

import static java.util.Objects.requireNonNull;

import io.fleetlake.maintenance.plan.ExpiryPlan;
import io.fleetlake.maintenance.plan.ExpiryPolicy;
import io.fleetlake.maintenance.plan.RefView;
import io.fleetlake.maintenance.plan.SnapshotExpiryPlanner;
import io.fleetlake.maintenance.plan.SnapshotView;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Expires snapshots with Iceberg's {@code ExpireSnapshots}, which also deletes the data files, manifests and manifest
 * lists only the expired snapshots used. The window and the number of newest snapshots kept are always passed
 * explicitly, never left to the table properties' defaults (5 days). Before committing, what Iceberg would keep is
 * checked against {@link SnapshotExpiryPlanner}'s plan: should Iceberg ever drop a snapshot the plan keeps (a tagged
 * one), nothing is expired and the step fails.
 */
final class SnapshotExpiry {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotExpiry.class);
    static final String AUDIT_TAG_PREFIX = "audit-";

    private final ExpiryPolicy policy;
    private final ExecutorService deletes;

    SnapshotExpiry(ExpiryPolicy policy, ExecutorService deletes) {
        this.policy = requireNonNull(policy, "policy is null");
        this.deletes = requireNonNull(deletes, "deletes is null");
    }

    StepResults.Expiry run(Table table, Instant now, boolean dryRun) {
        table.refresh();
        ExpiryPlan plan = SnapshotExpiryPlanner.plan(snapshots(table), refs(table), now, policy);
        long taggedKept = table.refs().entrySet().stream()
                .filter(ref -> ref.getValue().isTag() && ref.getKey().startsWith(AUDIT_TAG_PREFIX))
                .filter(ref -> !plan.refsRemoved().contains(ref.getKey()))
                .map(ref -> ref.getValue().snapshotId())
                .distinct()
                .count();
        StepResults.Expiry planned =
                new StepResults.Expiry(plan.expired().size(), plan.kept().size(), taggedKept, plan.refsRemoved());
        if (dryRun || (plan.expired().isEmpty() && plan.refsRemoved().isEmpty())) {
            return planned;
        }
        ExpireSnapshots expire = table.expireSnapshots()
                .expireOlderThan(now.minus(policy.retention()).toEpochMilli())
                .retainLast(policy.retainLast())
                .cleanExpiredFiles(true)
                .executeDeleteWith(deletes);
        // apply() answers what the commit would remove, from the table's newest metadata.
        Set<Long> removed = new HashSet<>();
        expire.apply().forEach(snapshot -> removed.add(snapshot.snapshotId()));
        List<Long> removedButPlannedKept =
                plan.kept().keySet().stream().filter(removed::contains).toList();
        if (!removedButPlannedKept.isEmpty()) {
            throw new IllegalStateException("Iceberg would expire snapshots " + removedButPlannedKept + " of "
                    + table.name() + " that the retention plan keeps (refs "
                    + table.refs().keySet()
                    + "); nothing was expired. Report this with the table's metadata");
        }
        expire.commit();
        LOG.info(
                "Expired {} snapshots of {} older than {} (kept {}, audit tags {}, refs past their retention removed:"
                        + " {})",
                plan.expired().size(),
                table.name(),
                now.minus(policy.retention()),
                plan.kept().size(),
                taggedKept,
                plan.refsRemoved());
        return planned;
    }

    static List<SnapshotView> snapshots(Table table) {
        List<SnapshotView> views = new ArrayList<>();
        for (Snapshot snapshot : table.snapshots()) {
            views.add(new SnapshotView(
                    snapshot.snapshotId(),
                    snapshot.parentId() == null ? OptionalLong.empty() : OptionalLong.of(snapshot.parentId()),
                    Instant.ofEpochMilli(snapshot.timestampMillis())));
        }
        return views;
    }

    static List<RefView> refs(Table table) {
        List<RefView> views = new ArrayList<>();
        table.refs().forEach((name, ref) -> views.add(view(name, ref)));
        return views;
    }

    private static RefView view(String name, SnapshotRef ref) {
        return new RefView(
                name,
                ref.isBranch(),
                ref.snapshotId(),
                Optional.ofNullable(ref.maxRefAgeMs()).map(Duration::ofMillis),
                Optional.ofNullable(ref.maxSnapshotAgeMs()).map(Duration::ofMillis),
                ref.minSnapshotsToKeep() == null ? OptionalInt.empty() : OptionalInt.of(ref.minSnapshotsToKeep()));
    }
}
