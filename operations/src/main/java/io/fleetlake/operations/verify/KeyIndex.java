package io.fleetlake.operations.verify;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * How often each {@link FixKey} occurs in one stage, for millions of keys: per vehicle a sorted array of event times
 * (8 bytes per occurrence), so that a stage of a few million rows fits in a few tens of megabytes.
 */
final class KeyIndex {
    private static final long[] NONE = new long[0];

    private final Map<String, long[]> eventTimes; // sorted, one entry per occurrence
    private final long occurrences;

    private KeyIndex(Map<String, long[]> eventTimes, long occurrences) {
        this.eventTimes = eventTimes;
        this.occurrences = occurrences;
    }

    static Builder builder() {
        return new Builder();
    }

    /** Occurrences of {@code key}; 0 when it is absent. */
    int count(FixKey key) {
        long[] times = eventTimes.getOrDefault(key.vehicleId(), NONE);
        int index = Arrays.binarySearch(times, key.eventMicros());
        if (index < 0) {
            return 0;
        }
        int first = index;
        while (first > 0 && times[first - 1] == key.eventMicros()) {
            first--;
        }
        int last = index;
        while (last + 1 < times.length && times[last + 1] == key.eventMicros()) {
            last++;
        }
        return last - first + 1;
    }

    boolean contains(FixKey key) {
        return count(key) > 0;
    }

    /** Every occurrence counted. */
    long occurrences() {
        return occurrences;
    }

    /** Keys counted once. */
    long distinctKeys() {
        long distinct = 0;
        for (long[] times : eventTimes.values()) {
            for (int i = 0; i < times.length; i++) {
                if (i == 0 || times[i] != times[i - 1]) {
                    distinct++;
                }
            }
        }
        return distinct;
    }

    /** Each distinct key with its count, ordered by vehicle and event time. */
    void forEachKey(KeyCountConsumer consumer) {
        for (Map.Entry<String, long[]> entry : new TreeMap<>(eventTimes).entrySet()) {
            long[] times = entry.getValue();
            int start = 0;
            while (start < times.length) {
                int end = start;
                while (end + 1 < times.length && times[end + 1] == times[start]) {
                    end++;
                }
                consumer.accept(new FixKey(entry.getKey(), times[start]), end - start + 1);
                start = end + 1;
            }
        }
    }

    @FunctionalInterface
    interface KeyCountConsumer {
        void accept(FixKey key, int count);
    }

    /** Collects occurrences; not thread-safe. */
    static final class Builder {
        private final Map<String, long[]> times = new HashMap<>();
        private final Map<String, Integer> sizes = new HashMap<>();
        private long occurrences;

        Builder add(FixKey key) {
            String vehicle = key.vehicleId();
            long[] current = times.get(vehicle);
            int size = sizes.getOrDefault(vehicle, 0);
            if (current == null) {
                current = new long[16];
                times.put(vehicle, current);
            } else if (size == current.length) {
                current = Arrays.copyOf(current, current.length * 2);
                times.put(vehicle, current);
            }
            current[size] = key.eventMicros();
            sizes.put(vehicle, size + 1);
            occurrences++;
            return this;
        }

        KeyIndex build() {
            Map<String, long[]> sorted = new HashMap<>();
            times.forEach((vehicle, values) -> {
                long[] exact = Arrays.copyOf(values, sizes.get(vehicle));
                Arrays.sort(exact);
                sorted.put(vehicle, exact);
            });
            return new KeyIndex(sorted, occurrences);
        }
    }
}
