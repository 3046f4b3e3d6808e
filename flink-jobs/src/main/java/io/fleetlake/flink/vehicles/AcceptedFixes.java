package io.fleetlake.flink.vehicles;

import java.time.Instant;

/**
 * The de-duplication memory of one vehicle: its last {@link #capacity()} accepted fixes in the order they were accepted
 * (a ring), each with its content fingerprint and where it was read from. Bounded, so the pipeline's state grows with
 * the fleet, not with the traffic.
 *
 * <p>Why arrival order and not the newest event times: resends are a matter of arrival. A device that lost an
 * acknowledgement sends the fix again within seconds, and a broker redelivers the unacknowledged messages of a
 * restarted connector before anything newer of the same vehicle (both arrive shortly after the original, with few or no
 * other fixes of the vehicle in between); a device that uploads a buffer of old fixes after an outage and then retries
 * part of the upload also retries shortly after. Keeping the last accepted fixes catches all of them, also when the
 * buffered fixes are older than fixes the vehicle sent since.
 *
 * <p>Mutable and not thread-safe: it is part of {@link VehicleTrack}, confined to the task thread, and copied by the
 * state serializer when the heap state backend needs a copy for a running checkpoint.
 */
public final class AcceptedFixes {
    private long[] seconds;
    private int[] nanos;
    private long[] fingerprints;
    private int[] partitions;
    private long[] offsets;
    private int size;
    /** Where the next entry goes: the oldest entry once the ring is full. */
    private int next;

    public AcceptedFixes(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        seconds = new long[capacity];
        nanos = new int[capacity];
        fingerprints = new long[capacity];
        partitions = new int[capacity];
        offsets = new long[capacity];
    }

    public int capacity() {
        return seconds.length;
    }

    public int size() {
        return size;
    }

    /**
     * The entry of a fix with this event time, searched from the newest accepted fix back (a resend is most often of a
     * recent fix), or -1 when none of the remembered fixes has it.
     */
    public int find(Instant eventTime) {
        long eventSeconds = eventTime.getEpochSecond();
        int eventNanos = eventTime.getNano();
        int capacity = capacity();
        int slot = next;
        for (int i = 0; i < size; i++) {
            slot = slot == 0 ? capacity - 1 : slot - 1;
            if (seconds[slot] == eventSeconds && nanos[slot] == eventNanos) {
                return slot;
            }
        }
        return -1;
    }

    public long fingerprint(int entry) {
        return fingerprints[entry];
    }

    public int partition(int entry) {
        return partitions[entry];
    }

    public long offset(int entry) {
        return offsets[entry];
    }

    /** Remembers an accepted fix; when full, the one accepted longest ago is forgotten. */
    public void add(Instant eventTime, long fingerprint, int partition, long offset) {
        seconds[next] = eventTime.getEpochSecond();
        nanos[next] = eventTime.getNano();
        fingerprints[next] = fingerprint;
        partitions[next] = partition;
        offsets[next] = offset;
        next = next + 1 == capacity() ? 0 : next + 1;
        if (size < capacity()) {
            size++;
        }
    }

    /** The entry accepted {@code age} fixes before the newest one (0 = the newest); for serialisation, oldest first. */
    public int entry(int age) {
        if (age < 0 || age >= size) {
            throw new IndexOutOfBoundsException("age " + age + " of " + size + " entries");
        }
        int slot = next - 1 - age;
        return slot < 0 ? slot + capacity() : slot;
    }

    public Instant eventTime(int entry) {
        return Instant.ofEpochSecond(seconds[entry], nanos[entry]);
    }

    /** A copy with another capacity, keeping the most recently accepted fixes that fit (after a configuration change). */
    public AcceptedFixes withCapacity(int capacity) {
        AcceptedFixes copy = new AcceptedFixes(capacity);
        for (int age = Math.min(size, capacity) - 1; age >= 0; age--) {
            int entry = entry(age);
            copy.seconds[copy.next] = seconds[entry];
            copy.nanos[copy.next] = nanos[entry];
            copy.fingerprints[copy.next] = fingerprints[entry];
            copy.partitions[copy.next] = partitions[entry];
            copy.offsets[copy.next] = offsets[entry];
            copy.next = copy.next + 1 == capacity ? 0 : copy.next + 1;
            copy.size++;
        }
        return copy;
    }

    /** A deep copy. */
    public AcceptedFixes copy() {
        AcceptedFixes copy = new AcceptedFixes(capacity());
        System.arraycopy(seconds, 0, copy.seconds, 0, capacity());
        System.arraycopy(nanos, 0, copy.nanos, 0, capacity());
        System.arraycopy(fingerprints, 0, copy.fingerprints, 0, capacity());
        System.arraycopy(partitions, 0, copy.partitions, 0, capacity());
        System.arraycopy(offsets, 0, copy.offsets, 0, capacity());
        copy.size = size;
        copy.next = next;
        return copy;
    }
}
