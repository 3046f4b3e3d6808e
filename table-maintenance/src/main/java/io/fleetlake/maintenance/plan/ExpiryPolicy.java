package io.fleetlake.maintenance.plan;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * Which snapshots stay: every snapshot of a branch younger than {@code retention}, the newest {@code retainLast} of
 * each branch whatever their age, and every snapshot a tag or branch points to while the ref itself is kept.
 */
public record ExpiryPolicy(Duration retention, int retainLast) {
    public ExpiryPolicy {
        requireNonNull(retention, "retention is null");
        if (retention.isNegative()) {
            throw new IllegalArgumentException("retention must not be negative, got " + retention);
        }
        if (retainLast < 1) {
            throw new IllegalArgumentException("retainLast must be at least 1, got " + retainLast);
        }
    }
}
