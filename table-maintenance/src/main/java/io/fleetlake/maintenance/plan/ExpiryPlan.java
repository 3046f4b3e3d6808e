package io.fleetlake.maintenance.plan;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The outcome of expiry planning.
 *
 * @param expired snapshots that expire, oldest first
 * @param kept every snapshot that stays, with the first reason that keeps it
 * @param refsRemoved refs whose own retention ({@code max-ref-age-ms}) has passed; Iceberg removes them with the expiry
 */
public record ExpiryPlan(List<Long> expired, Map<Long, KeepReason> kept, Set<String> refsRemoved) {
    public ExpiryPlan {
        expired = List.copyOf(requireNonNull(expired, "expired is null"));
        kept = Map.copyOf(requireNonNull(kept, "kept is null"));
        refsRemoved = Set.copyOf(requireNonNull(refsRemoved, "refsRemoved is null"));
    }

    /** Why a snapshot is kept, in the order the planner checks. */
    public enum KeepReason {
        /** A kept ref (a tag such as {@code audit-2026-11-28}, or a branch) points to it. */
        REFERENCED,
        /** One of the newest snapshots of a branch. */
        RETAIN_LAST,
        /** Committed within the retention window. */
        WITHIN_WINDOW
    }
}
