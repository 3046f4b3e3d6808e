package io.fleetlake.stack.verify;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/** Which Kafka records (partition, offset) a table holds a row for; 8 bytes per row. */
final class OffsetIndex {
    private final Map<Integer, long[]> offsets; // sorted per partition

    private OffsetIndex(Map<Integer, long[]> offsets) {
        this.offsets = offsets;
    }

    static Builder builder() {
        return new Builder();
    }

    boolean contains(int partition, long offset) {
        long[] sorted = offsets.get(partition);
        return sorted != null && Arrays.binarySearch(sorted, offset) >= 0;
    }

    /** Collects offsets; not thread-safe. */
    static final class Builder {
        private final Map<Integer, long[]> offsets = new HashMap<>();
        private final Map<Integer, Integer> sizes = new HashMap<>();

        Builder add(int partition, long offset) {
            long[] current = offsets.get(partition);
            int size = sizes.getOrDefault(partition, 0);
            if (current == null) {
                current = new long[1024];
                offsets.put(partition, current);
            } else if (size == current.length) {
                current = Arrays.copyOf(current, current.length * 2);
                offsets.put(partition, current);
            }
            current[size] = offset;
            sizes.put(partition, size + 1);
            return this;
        }

        OffsetIndex build() {
            Map<Integer, long[]> sorted = new HashMap<>();
            offsets.forEach((partition, values) -> {
                long[] exact = Arrays.copyOf(values, sizes.get(partition));
                Arrays.sort(exact);
                sorted.put(partition, exact);
            });
            return new OffsetIndex(sorted);
        }
    }
}
