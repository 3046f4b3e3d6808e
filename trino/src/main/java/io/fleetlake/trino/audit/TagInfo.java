package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A tag of a fleet table.
 *
 * @param name the tag name
 * @param snapshotId the snapshot it points to
 * @param committedAt when that snapshot was committed; empty if the catalog no longer lists it
 * @param maxRefAge how long snapshot expiry keeps the tag, counted from the snapshot's commit; empty when the table
 *     default applies (forever unless {@code history.expire.max-ref-age-ms} is set)
 */
public record TagInfo(String name, long snapshotId, Optional<Instant> committedAt, Optional<Duration> maxRefAge) {
    public TagInfo {
        requireNonNull(name, "name is null");
        requireNonNull(committedAt, "committedAt is null");
        requireNonNull(maxRefAge, "maxRefAge is null");
    }

    /** When snapshot expiry may drop the tag (and then its snapshot): commit time plus the maximum age. */
    public Optional<Instant> expiresAt() {
        if (committedAt.isEmpty() || maxRefAge.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(committedAt.get().plus(maxRefAge.get()));
    }
}
