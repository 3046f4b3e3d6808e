package io.fleetlake.maintenance.plan;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.OptionalLong;

/**
 * What expiry planning needs of one snapshot.
 *
 * @param parentId the snapshot it was committed on; empty for the first one
 */
public record SnapshotView(long id, OptionalLong parentId, Instant committedAt) {
    public SnapshotView {
        requireNonNull(parentId, "parentId is null");
        requireNonNull(committedAt, "committedAt is null");
    }
}
