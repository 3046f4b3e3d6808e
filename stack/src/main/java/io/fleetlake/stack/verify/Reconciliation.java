package io.fleetlake.stack.verify;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/**
 * What {@link Reconciler} found. Every raw record is counted in exactly one of {@code pending}, {@code written},
 * {@code rejected}, {@code resendsDropped} or {@code lostRecords}, so {@link #accountedRecords()} plus {@code
 * lostRecords} equals {@code rawRecords}.
 *
 * @param rawRecords records of the raw topic in scope (read_committed)
 * @param rawUndecodable of those, records whose payload does not decode
 * @param rawDistinctKeys distinct (vehicle_id, event_time) of the decodable ones
 * @param pending records the pipeline has not committed past yet
 * @param written records a {@code fleet.positions} row was written from
 * @param rejected records a {@code fleet.rejected_positions} row was written from
 * @param resendsDropped records dropped because another record with their key has a row
 * @param positionRows rows of {@code fleet.positions} in scope
 * @param positionDistinctKeys distinct keys among them
 * @param rejectedRows rows of {@code fleet.rejected_positions} in scope
 * @param rejectedRowsByReason those by reason
 * @param lostRecords records the pipeline committed past that no table accounts for
 * @param lostKeys distinct keys of lost records
 * @param lostUndecodable lost records without a key
 * @param lostSamples some lost keys (and undecodable records by location)
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
        long positionRows,
        long positionDistinctKeys,
        long rejectedRows,
        Map<String, Long> rejectedRowsByReason,
        long lostRecords,
        long lostKeys,
        long lostUndecodable,
        List<String> lostSamples,
        long duplicatedKeys,
        long duplicateRows,
        List<String> duplicatedSamples,
        long keysWithoutRawRecord,
        List<String> keysWithoutRawRecordSamples) {
    public Reconciliation {
        rejectedRowsByReason = Map.copyOf(requireNonNull(rejectedRowsByReason, "rejectedRowsByReason is null"));
        lostSamples = List.copyOf(requireNonNull(lostSamples, "lostSamples is null"));
        duplicatedSamples = List.copyOf(requireNonNull(duplicatedSamples, "duplicatedSamples is null"));
        keysWithoutRawRecordSamples =
                List.copyOf(requireNonNull(keysWithoutRawRecordSamples, "keysWithoutRawRecordSamples is null"));
    }

    /** Lost distinct keys plus lost undecodable records. */
    public long lost() {
        return lostKeys + lostUndecodable;
    }

    /** No loss and no duplicate. */
    public boolean clean() {
        return lost() == 0 && duplicatedKeys == 0;
    }

    /** Raw records in one of the classes other than lost: {@code rawRecords - lostRecords}. */
    public long accountedRecords() {
        return pending + written + rejected + resendsDropped;
    }
}
