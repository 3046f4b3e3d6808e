package io.fleetlake.operations.health;

/** Opens the hand-built snapshots of this package's tests to the other packages' tests. */
public final class SnapshotFixtures {
    private SnapshotFixtures() {}

    /** A healthy stack's snapshot, taken at {@link Snapshots#NOW}. */
    public static HealthSnapshot healthy() {
        return new Snapshots().build();
    }
}
