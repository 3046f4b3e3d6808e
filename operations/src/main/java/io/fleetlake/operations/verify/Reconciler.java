package io.fleetlake.operations.verify;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reconciles the raw positions topic with the two tables the pipeline writes, one raw record at a time, so that
 * millions of records never have to be held at once.
 *
 * <p>Every raw record ends in exactly one of these classes. Records the pipeline has not committed past yet (at or after
 * its committed offset of their partition):
 *
 * <ul>
 *   <li><b>stalled</b>: received longer than {@code stalledAfter} before the committed offsets were read. The pipeline
 *       commits its offsets with every completed checkpoint, so a healthy pipeline is past a record within about two
 *       checkpoint intervals; one that is not is stopped, restarting in a loop, or cannot complete a checkpoint (an
 *       Iceberg commit or checkpoint storage that hangs). A failure.
 *   <li><b>pending</b>: in flight for less than that (or republished by {@code fleet dlq reprocess}, whose timestamp is
 *       the original receive time and says nothing about how long it waited); not judged.
 * </ul>
 *
 * Records the pipeline has committed past, judged as the pipeline decides ({@code FixJudge}):
 *
 * <ul>
 *   <li><b>written</b>: {@code fleet.positions} holds a row written from this record (its source partition and
 *       offset).
 *   <li><b>rejected</b>: {@code fleet.rejected_positions} holds a row of this record. A rejected row accounts for its
 *       own record only: the pipeline remembers accepted fixes, not rejected ones, so a resend of a rejected fix is
 *       judged again and gets a row of its own.
 *   <li><b>resend dropped</b>: neither, but {@code fleet.positions} holds a row of the same position (same key and the
 *       same {@link FixContent} fingerprint) written from another record: the pipeline dropped it as a device resend or
 *       a redelivery.
 *   <li><b>conflicting</b>: neither, and {@code fleet.positions} holds a row with its key but other content. The
 *       pipeline rejects such a fix as {@code CONFLICTING_RESEND}; without that rejected row it is unaccounted for. A
 *       failure, counted by distinct key.
 *   <li><b>lost</b>: no row of its own, and no row of {@code fleet.positions} holds its key. Lost keys are counted
 *       distinct; an undecodable record (no key) is lost when no rejected row names it.
 * </ul>
 *
 * A key is <b>duplicated</b> when {@code fleet.positions} holds more than one row with it.
 *
 * <p>A lost or conflicting record may only be one whose rows were committed to Iceberg a moment after the pipeline
 * committed its Kafka offsets (both happen when a checkpoint completes); {@link #recheck} classifies them again against
 * a later read of the tables.
 */
public final class Reconciler {
    private final PipelineOffsets committed;
    private final Duration stalledAfter;
    private TableRows positions;
    private TableRows rejected;

    private final KeyIndex.Builder rawKeys = KeyIndex.builder();
    private final List<RawTopicRecord> lost = new ArrayList<>();
    private final List<RawTopicRecord> conflicting = new ArrayList<>();
    private final Map<Integer, StalledPartition> stalled = new TreeMap<>();
    private final List<String> resendSamples = new ArrayList<>();
    private final int sampleLimit;
    private long rawRecords;
    private long undecodable;
    private long pending;
    private long stalledRecords;
    private long written;
    private long rejectedRecords;
    private long resendsDropped;

    /**
     * @param committed the pipeline's committed offsets, read before the tables and the topic
     * @param stalledAfter how long a record may wait for the pipeline before it is stalled
     * @param sampleLimit at most this many samples per finding
     */
    public Reconciler(
            PipelineOffsets committed,
            Duration stalledAfter,
            TableRows positions,
            TableRows rejected,
            int sampleLimit) {
        this.committed = requireNonNull(committed, "committed is null");
        this.stalledAfter = requireNonNull(stalledAfter, "stalledAfter is null");
        this.positions = requireNonNull(positions, "positions is null");
        this.rejected = requireNonNull(rejected, "rejected is null");
        if (sampleLimit < 0) {
            throw new IllegalArgumentException("sampleLimit must not be negative, got " + sampleLimit);
        }
        this.sampleLimit = sampleLimit;
    }

    /** Classifies one raw record inside the verified scope. */
    public void accept(RawTopicRecord record) {
        rawRecords++;
        record.key().ifPresentOrElse(rawKeys::add, () -> undecodable++);
        if (committed.committedPast(record.partition(), record.offset())) {
            classify(record);
        } else if (record.receivedAt().isPresent()
                && waitedTooLong(record.receivedAt().get())) {
            stalledRecords++;
            Instant receivedAt = record.receivedAt().get();
            stalled.merge(
                    record.partition(),
                    StalledPartition.first(record, receivedAt),
                    (earlier, first) -> earlier.plus(record, receivedAt));
        } else {
            pending++;
        }
    }

    private boolean waitedTooLong(Instant receivedAt) {
        return Duration.between(receivedAt, committed.readAt()).compareTo(stalledAfter) > 0;
    }

    private void classify(RawTopicRecord record) {
        if (positions.holdsRecord(record.partition(), record.offset())) {
            written++;
        } else if (rejected.holdsRecord(record.partition(), record.offset())) {
            rejectedRecords++;
        } else if (record.fix().isEmpty()) {
            lost.add(record);
        } else if (positions.holdsContent(record.fix().get())) {
            resendsDropped++;
            if (resendSamples.size() < sampleLimit) {
                resendSamples.add(record.fix().get().key() + " (" + record.location() + ")");
            }
        } else if (positions.keys().contains(record.fix().get().key())) {
            conflicting.add(record);
        } else {
            lost.add(record);
        }
    }

    /** True when some record is lost or conflicting according to the tables read so far. */
    public boolean hasUnaccounted() {
        return !lost.isEmpty() || !conflicting.isEmpty();
    }

    /**
     * Classifies the lost and conflicting records again against a later read of the tables, which also replaces the
     * earlier one.
     */
    public void recheck(TableRows laterPositions, TableRows laterRejected) {
        positions = requireNonNull(laterPositions, "laterPositions is null");
        rejected = requireNonNull(laterRejected, "laterRejected is null");
        List<RawTopicRecord> candidates = new ArrayList<>(lost);
        candidates.addAll(conflicting);
        lost.clear();
        conflicting.clear();
        candidates.forEach(this::classify);
    }

    /** The outcome. */
    public Reconciliation result() {
        KeyIndex raw = rawKeys.build();
        TreeSet<FixKey> lostKeys = new TreeSet<>();
        List<String> lostUndecodable = new ArrayList<>();
        for (RawTopicRecord record : lost) {
            record.key().ifPresentOrElse(lostKeys::add, () -> lostUndecodable.add(record.location()));
        }
        List<String> lostSamples = new ArrayList<>();
        lostKeys.stream().limit(sampleLimit).map(FixKey::toString).forEach(lostSamples::add);
        lostUndecodable.stream()
                .limit(Math.max(0, sampleLimit - lostSamples.size()))
                .map(location -> location + " (undecodable)")
                .forEach(lostSamples::add);

        TreeMap<FixKey, String> conflictingKeys = new TreeMap<>();
        conflicting.forEach(record -> conflictingKeys.putIfAbsent(record.key().orElseThrow(), record.location()));
        List<String> conflictingSamples = conflictingKeys.entrySet().stream()
                .limit(sampleLimit)
                .map(entry -> entry.getKey() + " (" + entry.getValue() + ": the stored row has other content)")
                .toList();

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
                resendSamples,
                positions.rows(),
                positions.keys().distinctKeys(),
                rejected.rows(),
                rejected.rowsByReason(),
                lost.size(),
                lostKeys.size(),
                lostUndecodable.size(),
                lostSamples,
                conflicting.size(),
                conflictingKeys.size(),
                conflictingSamples,
                new Reconciliation.Stalled(
                        stalledRecords, stalledAfter, committed.readAt(), List.copyOf(stalled.values())),
                duplicated[0],
                duplicated[1],
                duplicatedSamples,
                withoutRaw[0],
                withoutRawSamples);
    }
}
