package io.fleetlake.operations.verify;

import java.util.HashMap;
import java.util.Map;

/** Which Kafka records (partition, offset) a table holds a row for; 8 bytes per row. */
final class OffsetIndex {
    private final Map<Integer, SortedLongs> offsets;

    private OffsetIndex(Map<Integer, SortedLongs> offsets) {
        this.offsets = offsets;
    }

    static Builder builder() {
        return new Builder();
    }

    boolean contains(int partition, long offset) {
        SortedLongs sorted = offsets.get(partition);
        return sorted != null && sorted.contains(offset);
    }

    /** Collects offsets; not thread-safe. */
    static final class Builder {
        private final Map<Integer, SortedLongs.Builder> offsets = new HashMap<>();

        Builder add(int partition, long offset) {
            offsets.computeIfAbsent(partition, key -> SortedLongs.builder()).add(offset);
            return this;
        }

        OffsetIndex build() {
            Map<Integer, SortedLongs> sorted = new HashMap<>();
            offsets.forEach((partition, values) -> sorted.put(partition, values.build()));
            return new OffsetIndex(sorted);
        }
    }
}
