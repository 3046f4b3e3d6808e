package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.RejectionReason;
import java.time.Instant;
import java.util.Optional;

/**
 * Rejections of one reason in one time bucket.
 *
 * @param bucketStart start of the hour or day (UTC)
 * @param reason the stable {@link RejectionReason} name as stored
 * @param category who has to act, when the reason is one this version knows
 * @param rejections rejected records
 * @param vehicles distinct vehicles among them (records without a vehicle id are not counted)
 */
public record RejectionCount(
        Instant bucketStart,
        String reason,
        Optional<RejectionReason.Category> category,
        long rejections,
        long vehicles) {
    public RejectionCount {
        requireNonNull(bucketStart, "bucketStart is null");
        requireNonNull(reason, "reason is null");
        requireNonNull(category, "category is null");
    }
}
