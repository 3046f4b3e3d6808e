package io.fleetlake.operations.verify;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@link Reconciler} found. Every raw record is counted in exactly one of {@code pending}, {@code stalled}, {@code
 * written}, {@code rejected}, {@code resendsDropped}, {@code conflictingRecords} or {@code lostRecords}, so {@link
 * #accountedRecords()} plus {@link #unaccountedRecords()} equals {@code rawRecords}.
 *
 * @param rawRecords records of the raw topic in scope (read_committed)
 * @param rawUndecodable of those, records whose payload does not decode
 * @param rawDistinctKeys distinct (vehicle_id, event_time) of the decodable ones
 * @param pending records the pipeline has not committed past yet, for less than the stall threshold
 * @param written records a {@code fleet.positions} row was written from
 * @param rejected records a {@code fleet.rejected_positions} row was written from
 * @param resendsDropped records dropped because a row holds the same position (key and content) from another record
 * @param resendsDroppedSamples some of them, with their location
 * @param positionRows rows of {@code fleet.positions} in scope
 * @param positionDistinctKeys distinct keys among them
 * @param rejectedRows rows of {@code fleet.rejected_positions} in scope
 * @param rejectedRowsByReason those by reason
 * @param lostRecords records the pipeline committed past that no table accounts for
 * @param lostKeys distinct keys of lost records
 * @param lostUndecodable lost records without a key
 * @param lostSamples some lost keys (and undecodable records by location)
 * @param conflictingRecords records without a row of their own whose key has a row of other content
 * @param conflictingKeys distinct keys of those
 * @param conflictingSamples some of them, with the location of a record
 * @param stalled records the pipeline has not committed past for longer than the threshold
 * @param duplicatedKeys keys with more than one row in {@code fleet.positions}
 * @param duplicateRows rows beyond the first of those keys
 * @param duplicatedSamples some of them, with their row counts
 * @param keysWithoutRawRecord keys in {@code fleet.positions} that no raw record in scope has (raw retention, or rows
 *     written around the pipeline); informational
 * @param keysWithoutRawRecordSamples some of them
 */
public record Reconciliation(
        long rawRecords,
        long rawUndecodable,
        long rawDistinctKeys,
        long pending,
        long written,
        long rejected,
        long resendsDropped,
        List<String> resendsDroppedSamples,
        long positionRows,
        long positionDistinctKeys,
        long rejectedRows,
        Map<String, Long> rejectedRowsByReason,
        long lostRecords,
        long lostKeys,
        long lostUndecodable,
        List<String> lostSamples,
        long conflictingRecords,
        long conflictingKeys,
        List<String> conflictingSamples,
        Stalled stalled,
        long duplicatedKeys,
        long duplicateRows,
        List<String> duplicatedSamples,
        long keysWithoutRawRecord,
        List<String> keysWithoutRawRecordSamples) {
    public Reconciliation {
        resendsDroppedSamples = List.copyOf(requireNonNull(resendsDroppedSamples, "resendsDroppedSamples is null"));
        rejectedRowsByReason = Map.copyOf(requireNonNull(rejectedRowsByReason, "rejectedRowsByReason is null"));
        lostSamples = List.copyOf(requireNonNull(lostSamples, "lostSamples is null"));
        conflictingSamples = List.copyOf(requireNonNull(conflictingSamples, "conflictingSamples is null"));
        requireNonNull(stalled, "stalled is null");
        duplicatedSamples = List.copyOf(requireNonNull(duplicatedSamples, "duplicatedSamples is null"));
        keysWithoutRawRecordSamples =
                List.copyOf(requireNonNull(keysWithoutRawRecordSamples, "keysWithoutRawRecordSamples is null"));
    }

    /** Lost distinct keys plus lost undecodable records. */
    public long lost() {
        return lostKeys + lostUndecodable;
    }

    /** Nothing lost, conflicting, stalled or duplicated. */
    public boolean clean() {
        return lost() == 0 && conflictingKeys == 0 && stalled.records() == 0 && duplicatedKeys == 0;
    }

    /** Raw records in a class that accounts for them: {@code rawRecords - unaccountedRecords()}. */
    public long accountedRecords() {
        return pending + written + rejected + resendsDropped;
    }

    /** Raw records lost, conflicting or stalled. */
    public long unaccountedRecords() {
        return lostRecords + conflictingRecords + stalled.records();
    }

    /**
     * The records the pipeline has not committed past although they waited longer than {@code after}.
     *
     * @param records how many
     * @param after the threshold ({@code verify.stalled-after})
     * @param observedAt when the pipeline's committed offsets were read; ages are measured to this moment
     * @param partitions per partition of the raw topic that has any, by partition
     */
    public record Stalled(long records, Duration after, Instant observedAt, List<StalledPartition> partitions) {
        public Stalled {
            requireNonNull(after, "after is null");
            requireNonNull(observedAt, "observedAt is null");
            partitions = List.copyOf(requireNonNull(partitions, "partitions is null"));
        }

        /** How long the oldest stalled record had waited; empty when none is stalled. */
        public Optional<Duration> oldestAge() {
            return partitions.stream()
                    .map(StalledPartition::oldestReceivedAt)
                    .min(Instant::compareTo)
                    .map(oldest -> Duration.between(oldest, observedAt));
        }
    }
}
