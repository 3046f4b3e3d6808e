package io.fleetlake.stack.verify;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The rows of one table as {@code fleet verify} needs them: which keys they hold (how often) and which raw records
 * (partition, offset) they were written from. Built once per read, then read only.
 */
public final class TableRows {
    private final KeyIndex keys;
    private final OffsetIndex offsets;
    private final long rows;
    private final Map<String, Long> rowsByReason;

    private TableRows(KeyIndex keys, OffsetIndex offsets, long rows, Map<String, Long> rowsByReason) {
        this.keys = keys;
        this.offsets = offsets;
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
        private final Map<String, Long> rowsByReason = new TreeMap<>();
        private long rows;

        /**
         * One row.
         *
         * @param key its (vehicle_id, event_time); empty for a rejected record that was never decoded
         * @param partition its source partition of the raw positions topic
         * @param offset its source offset
         * @param reason its rejection reason, for a rejected row
         */
        public Builder add(Optional<FixKey> key, int partition, long offset, Optional<String> reason) {
            key.ifPresent(keys::add);
            offsets.add(partition, offset);
            reason.ifPresent(value -> rowsByReason.merge(value, 1L, Long::sum));
            rows++;
            return this;
        }

        public TableRows build() {
            return new TableRows(keys.build(), offsets.build(), rows, rowsByReason);
        }
    }
}
