package io.fleetlake.operations.verify;

import java.util.Arrays;

/** A set of 64-bit values for millions of entries: one sorted array, 8 bytes per value. Built once, then read only. */
final class SortedLongs {
    private final long[] values;

    private SortedLongs(long[] values) {
        this.values = values;
    }

    static Builder builder() {
        return new Builder();
    }

    boolean contains(long value) {
        return Arrays.binarySearch(values, value) >= 0;
    }

    /** Collects values; not thread-safe. */
    static final class Builder {
        private long[] values = new long[1024];
        private int size;

        Builder add(long value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, values.length * 2);
            }
            values[size++] = value;
            return this;
        }

        SortedLongs build() {
            long[] exact = Arrays.copyOf(values, size);
            Arrays.sort(exact);
            return new SortedLongs(exact);
        }
    }
}
