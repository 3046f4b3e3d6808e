package io.fleetlake.operations.verify;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The rows of one table as {@code fleet verify} needs them: which keys they hold (how often), which raw records
 * (partition, offset) they were written from and, for {@code fleet.positions}, which contents ({@link FixContent}
 * fingerprints). Built once per read, then read only.
 */
public final class TableRows {
    private final KeyIndex keys;
    private final OffsetIndex offsets;
    private final SortedLongs fingerprints;
    private final long rows;
    private final Map<String, Long> rowsByReason;

    private TableRows(
            KeyIndex keys, OffsetIndex offsets, SortedLongs fingerprints, long rows, Map<String, Long> rowsByReason) {
        this.keys = keys;
        this.offsets = offsets;
        this.fingerprints = fingerprints;
        this.rows = rows;
        this.rowsByReason = Map.copyOf(rowsByReason);
    }

    public static Builder builder() {
        return new Builder();
    }

    KeyIndex keys() {
        return keys;
    }

    boolean holdsRecord(int partition, long offset) {
        return offsets.contains(partition, offset);
    }

    /** Whether a row holds this position: the same key and the same content. */
    boolean holdsContent(FixContent fix) {
        return fingerprints.contains(fix.fingerprint()) && keys.contains(fix.key());
    }

    public long rows() {
        return rows;
    }

    /** Rows by rejection reason (rejected positions only; empty for the positions table). */
    public Map<String, Long> rowsByReason() {
        return rowsByReason;
    }

    /** Collects rows; not thread-safe. */
    public static final class Builder {
        private final KeyIndex.Builder keys = KeyIndex.builder();
        private final OffsetIndex.Builder offsets = OffsetIndex.builder();
        private final SortedLongs.Builder fingerprints = SortedLongs.builder();
        private final Map<String, Long> rowsByReason = new TreeMap<>();
        private long rows;

        /**
         * One row of {@code fleet.positions}.
         *
         * @param fix its key and content, read back from its columns
         * @param partition its source partition of the raw positions topic
         * @param offset its source offset
         */
        public Builder position(FixContent fix, int partition, long offset) {
            requireNonNull(fix, "fix is null");
            keys.add(fix.key());
            fingerprints.add(fix.fingerprint());
            return row(partition, offset);
        }

        /**
         * One row of {@code fleet.rejected_positions}.
         *
         * @param key its (vehicle_id, event_time); empty for a record that was never decoded
         * @param partition its source partition of the raw positions topic
         * @param offset its source offset
         * @param reason its rejection reason
         */
        public Builder rejected(Optional<FixKey> key, int partition, long offset, String reason) {
            requireNonNull(reason, "reason is null");
            key.ifPresent(keys::add);
            rowsByReason.merge(reason, 1L, Long::sum);
            return row(partition, offset);
        }

        private Builder row(int partition, long offset) {
            offsets.add(partition, offset);
            rows++;
            return this;
        }

        public TableRows build() {
            return new TableRows(keys.build(), offsets.build(), fingerprints.build(), rows, rowsByReason);
        }
    }
}
