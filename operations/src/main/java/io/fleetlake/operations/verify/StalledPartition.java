package io.fleetlake.operations.verify;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * The stalled records of one partition of the raw positions topic: records the pipeline has not committed past although
 * they have waited longer than the threshold.
 *
 * @param partition the partition
 * @param records how many
 * @param firstOffset the lowest offset among them (the pipeline reads a partition in order: it is stuck there)
 * @param oldestReceivedAt the earliest receive time among them
 */
public record StalledPartition(int partition, long records, long firstOffset, Instant oldestReceivedAt) {
    public StalledPartition {
        requireNonNull(oldestReceivedAt, "oldestReceivedAt is null");
    }

    /** The first stalled record of a partition. */
    static StalledPartition first(RawTopicRecord record, Instant receivedAt) {
        return new StalledPartition(record.partition(), 1, record.offset(), receivedAt);
    }

    /** This one with one more stalled record. */
    StalledPartition plus(RawTopicRecord record, Instant receivedAt) {
        return new StalledPartition(
                partition,
                records + 1,
                Math.min(firstOffset, record.offset()),
                receivedAt.isBefore(oldestReceivedAt) ? receivedAt : oldestReceivedAt);
    }
}
