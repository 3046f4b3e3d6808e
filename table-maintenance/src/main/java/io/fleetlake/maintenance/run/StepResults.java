package io.fleetlake.maintenance.run;

import static java.util.Objects.requireNonNull;

import java.util.Set;

/** What each maintenance step did (or, in a dry run, would do) to one table. */
public final class StepResults {
    private StepResults() {}

    /**
     * @param groups file groups rewritten, each into files of the target size
     * @param partitions partitions they belong to
     * @param danglingDeletesRemoved delete files that applied to no live data file any more, dropped after the rewrite
     */
    public record Compaction(
            int groups,
            int partitions,
            long filesRewritten,
            long bytesRewritten,
            long filesAdded,
            long bytesAdded,
            long danglingDeletesRemoved) {
        public static final Compaction NONE = new Compaction(0, 0, 0, 0, 0, 0, 0);
    }

    /** @param refsRemoved refs whose own retention had passed */
    public record Expiry(long snapshotsExpired, long snapshotsKept, long taggedSnapshotsKept, Set<String> refsRemoved) {
        public static final Expiry NONE = new Expiry(0, 0, 0, Set.of());

        public Expiry {
            refsRemoved = Set.copyOf(requireNonNull(refsRemoved, "refsRemoved is null"));
        }
    }

    /** @param rewritten whether the data manifests were rewritten (there were enough of them) */
    public record Manifests(boolean rewritten, long before, long after) {
        public static final Manifests NONE = new Manifests(false, 0, 0);
    }

    /** @param found orphans older than the minimum age; all of them are removed unless the run is a dry run */
    public record Orphans(long found, long removed, long bytes) {
        public static final Orphans NONE = new Orphans(0, 0, 0);
    }
}
