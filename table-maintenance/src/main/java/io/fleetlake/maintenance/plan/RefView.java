package io.fleetlake.maintenance.plan;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A branch or tag of a table, with the retention settings Iceberg stores on it.
 *
 * @param maxRefAge how long the ref itself is kept, counted from its snapshot's commit; empty keeps it forever
 *     (unless the table property {@code history.expire.max-ref-age-ms} says otherwise, which the fleet tables do not
 *     set). {@code fleet audit tag} sets it ({@code --keep}, 400 days by default)
 * @param maxSnapshotAge a branch's own snapshot retention, overriding the maintenance window
 * @param minSnapshotsToKeep a branch's own number of newest snapshots kept, overriding the maintenance setting
 */
public record RefView(
        String name,
        boolean branch,
        long snapshotId,
        Optional<Duration> maxRefAge,
        Optional<Duration> maxSnapshotAge,
        OptionalInt minSnapshotsToKeep) {
    public static final String MAIN = "main";

    public RefView {
        requireNonNull(name, "name is null");
        requireNonNull(maxRefAge, "maxRefAge is null");
        requireNonNull(maxSnapshotAge, "maxSnapshotAge is null");
        requireNonNull(minSnapshotsToKeep, "minSnapshotsToKeep is null");
    }

    public static RefView tag(String name, long snapshotId, Optional<Duration> maxRefAge) {
        return new RefView(name, false, snapshotId, maxRefAge, Optional.empty(), OptionalInt.empty());
    }

    public static RefView mainBranch(long snapshotId) {
        return new RefView(MAIN, true, snapshotId, Optional.empty(), Optional.empty(), OptionalInt.empty());
    }
}
