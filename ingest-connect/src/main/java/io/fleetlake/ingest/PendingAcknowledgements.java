package io.fleetlake.ingest;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The MQTT acknowledgements of records handed to Connect and not yet committed to Kafka, bounded by a capacity.
 *
 * <p>Keyed by record identity: Connect hands back the very record instance that {@code poll()} returned. An entry
 * leaves the map when its record is committed or when the task stops; the capacity makes {@code poll()} wait instead
 * of taking more messages while Kafka is behind, so the map cannot grow without bound.
 */
final class PendingAcknowledgements {
    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition roomAvailable = lock.newCondition();
    private final Map<SourceRecord, MqttInboundMessage.Acknowledgement> byRecord = new IdentityHashMap<>();

    PendingAcknowledgements(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
    }

    /** Waits until at least one more record may be registered, at most {@code timeout}; returns the free room. */
    int awaitRoom(Duration timeout) throws InterruptedException {
        long remainingNanos = timeout.toNanos();
        lock.lock();
        try {
            while (byRecord.size() >= capacity && remainingNanos > 0) {
                remainingNanos = roomAvailable.awaitNanos(remainingNanos);
            }
            return capacity - byRecord.size();
        } finally {
            lock.unlock();
        }
    }

    void register(SourceRecord record, MqttInboundMessage.Acknowledgement acknowledgement) {
        requireNonNull(record, "record is null");
        requireNonNull(acknowledgement, "acknowledgement is null");
        lock.lock();
        try {
            if (byRecord.size() >= capacity) {
                throw new IllegalStateException("More than " + capacity + " records awaiting a Kafka commit");
            }
            if (byRecord.putIfAbsent(record, acknowledgement) != null) {
                throw new IllegalStateException("Record registered twice: " + record);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Acknowledges the message of a committed record.
     *
     * @return false when the record is unknown: already acknowledged, or released by a stop
     */
    boolean acknowledge(SourceRecord record) {
        MqttInboundMessage.Acknowledgement acknowledgement;
        lock.lock();
        try {
            acknowledgement = byRecord.remove(record);
            roomAvailable.signalAll();
        } finally {
            lock.unlock();
        }
        if (acknowledgement == null) {
            return false;
        }
        acknowledgement.acknowledge();
        return true;
    }

    /** Forgets every pending record without acknowledging it; returns how many there were. */
    int releaseAll() {
        lock.lock();
        try {
            int released = byRecord.size();
            byRecord.clear();
            roomAvailable.signalAll();
            return released;
        } finally {
            lock.unlock();
        }
    }

    int size() {
        lock.lock();
        try {
            return byRecord.size();
        } finally {
            lock.unlock();
        }
    }
}
