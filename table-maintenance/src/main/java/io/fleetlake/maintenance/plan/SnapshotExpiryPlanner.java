package io.fleetlake.maintenance.plan;

import static java.util.Objects.requireNonNull;

import io.fleetlake.maintenance.plan.ExpiryPlan.KeepReason;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides which snapshots expire, with the rules of Iceberg's own {@code ExpireSnapshots} ({@code RemoveSnapshots}) so
 * that the plan shown by {@code fleet maintain --dry-run} is what the commit does, and the commit is checked against it
 * before it is made:
 *
 * <ol>
 *   <li>A ref is kept while its own retention ({@code max-ref-age-ms}, counted from its snapshot's commit) has not
 *       passed; {@code main} always. A kept tag keeps its snapshot: an {@code audit-*} tag made by {@code fleet audit
 *       tag} keeps the day's snapshot for its {@code --keep} period (400 days by default), however old.
 *   <li>Of each kept branch, walking back from its head: a snapshot is kept while fewer than {@code retainLast} are
 *       kept or while it was committed within the window; the walk stops at the first one that is neither.
 *   <li>A snapshot that is neither an ancestor of a kept branch nor the snapshot of a kept tag (left behind by a
 *       rollback, or older history of a tag) is kept while it is within the window.
 *   <li>Everything else expires.
 * </ol>
 */
public final class SnapshotExpiryPlanner {
    private SnapshotExpiryPlanner() {}

    public static ExpiryPlan plan(List<SnapshotView> snapshots, List<RefView> refs, Instant now, ExpiryPolicy policy) {
        requireNonNull(snapshots, "snapshots is null");
        requireNonNull(refs, "refs is null");
        requireNonNull(now, "now is null");
        requireNonNull(policy, "policy is null");
        Map<Long, SnapshotView> byId = new HashMap<>();
        snapshots.forEach(snapshot -> byId.put(snapshot.id(), snapshot));
        Instant windowStart = now.minus(policy.retention());

        Map<Long, KeepReason> kept = new LinkedHashMap<>();
        Set<String> refsRemoved = new TreeSet<>();
        Set<Long> reachable = new HashSet<>();
        for (RefView ref : refs) {
            SnapshotView head = byId.get(ref.snapshotId());
            boolean refKept = ref.name().equals(RefView.MAIN)
                    || (head != null
                            && ref.maxRefAge()
                                    .map(age -> !head.committedAt().plus(age).isBefore(now))
                                    .orElse(true));
            if (!refKept) {
                refsRemoved.add(ref.name());
                continue;
            }
            if (head == null) {
                continue;
            }
            kept.putIfAbsent(head.id(), KeepReason.REFERENCED);
            if (ref.branch()) {
                keepBranch(ref, head, byId, now, windowStart, policy, kept);
            }
        }
        for (RefView ref : refs) {
            if (refsRemoved.contains(ref.name())) {
                continue;
            }
            if (ref.branch()) {
                ancestors(ref.snapshotId(), byId).forEach(reachable::add);
            } else {
                reachable.add(ref.snapshotId());
            }
        }
        for (SnapshotView snapshot : snapshots) {
            if (!reachable.contains(snapshot.id()) && !snapshot.committedAt().isBefore(windowStart)) {
                kept.putIfAbsent(snapshot.id(), KeepReason.WITHIN_WINDOW);
            }
        }
        List<Long> expired = snapshots.stream()
                .filter(snapshot -> !kept.containsKey(snapshot.id()))
                .sorted(Comparator.comparing(SnapshotView::committedAt).thenComparingLong(SnapshotView::id))
                .map(SnapshotView::id)
                .toList();
        return new ExpiryPlan(expired, kept, refsRemoved);
    }

    private static void keepBranch(
            RefView branch,
            SnapshotView head,
            Map<Long, SnapshotView> byId,
            Instant now,
            Instant windowStart,
            ExpiryPolicy policy,
            Map<Long, KeepReason> kept) {
        Instant branchWindowStart = branch.maxSnapshotAge().map(now::minus).orElse(windowStart);
        int retainLast = branch.minSnapshotsToKeep().orElse(policy.retainLast());
        int keptOfBranch = 0;
        for (SnapshotView snapshot = head; snapshot != null; ) {
            if (keptOfBranch < retainLast) {
                kept.merge(snapshot.id(), KeepReason.RETAIN_LAST, SnapshotExpiryPlanner::first);
            } else if (!snapshot.committedAt().isBefore(branchWindowStart)) {
                kept.merge(snapshot.id(), KeepReason.WITHIN_WINDOW, SnapshotExpiryPlanner::first);
            } else {
                return;
            }
            keptOfBranch++;
            snapshot = snapshot.parentId().isPresent()
                    ? byId.get(snapshot.parentId().getAsLong())
                    : null;
        }
    }

    private static KeepReason first(KeepReason existing, KeepReason candidate) {
        return existing.ordinal() <= candidate.ordinal() ? existing : candidate;
    }

    private static List<Long> ancestors(long snapshotId, Map<Long, SnapshotView> byId) {
        List<Long> ancestors = new ArrayList<>();
        for (SnapshotView snapshot = byId.get(snapshotId); snapshot != null; ) {
            ancestors.add(snapshot.id());
            snapshot = snapshot.parentId().isPresent()
                    ? byId.get(snapshot.parentId().getAsLong())
                    : null;
        }
        return ancestors;
    }
}
