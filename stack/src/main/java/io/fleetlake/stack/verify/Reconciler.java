package io.fleetlake.stack.verify;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Reconciles the raw positions topic with the two tables the pipeline writes, one raw record at a time, so that
 * millions of records never have to be held at once.
 *
 * <p>Every raw record ends in exactly one of these classes:
 *
 * <ul>
 *   <li><b>pending</b>: at or after the pipeline's committed offset of its partition, so the pipeline has not finished
 *       with it yet (it will after its next checkpoint); neither counted as lost nor as arrived.
 *   <li><b>written</b>: {@code fleet.positions} holds a row written from this record (its source partition and
 *       offset).
 *   <li><b>rejected</b>: {@code fleet.rejected_positions} holds a row of this record.
 *   <li><b>resend dropped</b>: neither, but a row with its key (vehicle_id, event_time) exists in either table, written
 *       from another record with that key: the pipeline dropped it as a device resend (or a redelivery).
 *   <li><b>lost</b>: the pipeline has committed past it, and no table holds its key, nor a row of this record. Lost
 *       keys are counted distinct; an undecodable record (no key) is lost when no rejected row names it.
 * </ul>
 *
 * A key is <b>duplicated</b> when {@code fleet.positions} holds more than one row with it.
 *
 * <p>A lost record may only be one whose rows were committed to Iceberg a moment after the pipeline committed its
 * Kafka offsets (both happen when a checkpoint completes); {@link #recheck} classifies the lost records again against
 * a later read of the tables.
 */
public final class Reconciler {
    private final Map<Integer, Long> committedOffsets;
    private TableRows positions;
    private TableRows rejected;

    private final KeyIndex.Builder rawKeys = KeyIndex.builder();
    private final List<RawRecord> lost = new ArrayList<>();
    private long rawRecords;
    private long undecodable;
    private long pending;
    private long written;
    private long rejectedRecords;
    private long resendsDropped;

    /**
     * @param committedOffsets the pipeline's committed offset per partition of the raw topic (the next record it will
     *     read); a partition without one is pending as a whole
     */
    public Reconciler(Map<Integer, Long> committedOffsets, TableRows positions, TableRows rejected) {
        this.committedOffsets = Map.copyOf(requireNonNull(committedOffsets, "committedOffsets is null"));
        this.positions = requireNonNull(positions, "positions is null");
        this.rejected = requireNonNull(rejected, "rejected is null");
    }

    /** Classifies one raw record inside the verified scope. */
    public void accept(RawRecord record) {
        rawRecords++;
        record.key().ifPresentOrElse(rawKeys::add, () -> undecodable++);
        if (record.offset() >= committedOffsets.getOrDefault(record.partition(), 0L)) {
            pending++;
        } else {
            classify(record);
        }
    }

    private void classify(RawRecord record) {
        if (positions.holdsRecord(record.partition(), record.offset())) {
            written++;
        } else if (rejected.holdsRecord(record.partition(), record.offset())) {
            rejectedRecords++;
        } else if (record.key().isPresent()
                && (positions.keys().contains(record.key().get())
                        || rejected.keys().contains(record.key().get()))) {
            resendsDropped++;
        } else {
            lost.add(record);
        }
    }

    /** True when some record is lost according to the tables read so far. */
    public boolean hasLost() {
        return !lost.isEmpty();
    }

    /** Classifies the lost records again against a later read of the tables, which also replaces the earlier one. */
    public void recheck(TableRows laterPositions, TableRows laterRejected) {
        positions = requireNonNull(laterPositions, "laterPositions is null");
        rejected = requireNonNull(laterRejected, "laterRejected is null");
        List<RawRecord> candidates = new ArrayList<>(lost);
        lost.clear();
        candidates.forEach(this::classify);
    }

    /** The outcome, with at most {@code sampleLimit} sample keys per finding. */
    public Reconciliation result(int sampleLimit) {
        KeyIndex raw = rawKeys.build();
        TreeSet<FixKey> lostKeys = new TreeSet<>();
        List<String> lostUndecodable = new ArrayList<>();
        for (RawRecord record : lost) {
            record.key().ifPresentOrElse(lostKeys::add, () -> lostUndecodable.add(record.location()));
        }
        List<String> lostSamples = new ArrayList<>();
        lostKeys.stream().limit(sampleLimit).map(FixKey::toString).forEach(lostSamples::add);
        lostUndecodable.stream()
                .limit(Math.max(0, sampleLimit - lostSamples.size()))
                .map(location -> location + " (undecodable)")
                .forEach(lostSamples::add);

        long[] duplicated = {0, 0};
        long[] withoutRaw = {0};
        List<String> duplicatedSamples = new ArrayList<>();
        List<String> withoutRawSamples = new ArrayList<>();
        positions.keys().forEachKey((key, count) -> {
            if (count > 1) {
                duplicated[0]++;
                duplicated[1] += count - 1;
                if (duplicatedSamples.size() < sampleLimit) {
                    duplicatedSamples.add(key + " (" + count + " rows)");
                }
            }
            if (!raw.contains(key)) {
                withoutRaw[0]++;
                if (withoutRawSamples.size() < sampleLimit) {
                    withoutRawSamples.add(key.toString());
                }
            }
        });
        return new Reconciliation(
                rawRecords,
                undecodable,
                raw.distinctKeys(),
                pending,
                written,
                rejectedRecords,
                resendsDropped,
                positions.rows(),
                positions.keys().distinctKeys(),
                rejected.rows(),
                rejected.rowsByReason(),
                lost.size(),
                lostKeys.size(),
                lostUndecodable.size(),
                lostSamples,
                duplicated[0],
                duplicated[1],
                duplicatedSamples,
                withoutRaw[0],
                withoutRawSamples);
    }

    /** For tests: the raw records found lost so far. */
    List<RawRecord> lostRecords() {
        return List.copyOf(lost);
    }
}
