package io.fleetlake.flink.records;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.RejectionReason;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * A raw record the pipeline refused, on its way to the dead-letter topic. The original key and value are kept byte
 * for byte so that the record can be reprocessed after a fix.
 *
 * @param originalValue the device payload exactly as read, or null when the record had no value
 * @param originalKey the Kafka key exactly as read, or null
 * @param reason stable rejection code
 * @param detail what exactly is wrong, for the person reading the dead-letter topic
 * @param sourceTopic topic of the rejected record
 * @param sourcePartition partition of the rejected record
 * @param sourceOffset offset of the rejected record
 * @param rejectedAt when the pipeline rejected it (processing time)
 */
public record RejectedRecord(
        byte[] originalValue,
        byte[] originalKey,
        RejectionReason reason,
        String detail,
        String sourceTopic,
        int sourcePartition,
        long sourceOffset,
        Instant rejectedAt) {
    public RejectedRecord {
        requireNonNull(reason, "reason is null");
        requireNonNull(detail, "detail is null");
        requireNonNull(sourceTopic, "sourceTopic is null");
        requireNonNull(rejectedAt, "rejectedAt is null");
    }

    /** Rejects a raw record, keeping its bytes and lineage. */
    public static RejectedRecord of(RawRecord record, RejectionReason reason, String detail, Instant rejectedAt) {
        return new RejectedRecord(
                record.value(),
                record.key(),
                reason,
                detail,
                record.topic(),
                record.partition(),
                record.offset(),
                rejectedAt);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RejectedRecord that
                && Arrays.equals(originalValue, that.originalValue)
                && Arrays.equals(originalKey, that.originalKey)
                && reason == that.reason
                && detail.equals(that.detail)
                && sourceTopic.equals(that.sourceTopic)
                && sourcePartition == that.sourcePartition
                && sourceOffset == that.sourceOffset
                && rejectedAt.equals(that.rejectedAt);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(originalValue), reason, detail, sourceTopic, sourcePartition, sourceOffset);
    }

    @Override
    public String toString() {
        return "RejectedRecord{" + reason + ": " + detail + ", source=" + sourceTopic + "-" + sourcePartition + "@"
                + sourceOffset + ", rejectedAt=" + rejectedAt + ", valueBytes="
                + (originalValue == null ? "null" : originalValue.length) + "}";
    }
}
