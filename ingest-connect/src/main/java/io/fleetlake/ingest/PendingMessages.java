package io.fleetlake.ingest;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The MQTT messages a task took from its queue and has not acknowledged yet, bounded by a capacity: each is either a
 * record handed to Connect and waiting for Kafka's acknowledgement, or a message Kafka refused that waits to be sent as a
 * dead letter.
 *
 * <p>Keyed by record identity: Connect hands back the very record instance that {@code poll()} returned. A message
 * leaves when Kafka acknowledged its record or its dead letter ({@link #acknowledge}), or when the task stops
 * ({@link #releaseAll}); in both cases nothing is kept. The capacity makes {@code poll()} wait instead of taking more
 * messages while Kafka is behind, so memory stays bounded. Thread-safe: Connect calls {@code commitRecord} from the
 * producer's thread.
 */
final class PendingMessages {
    private static final Duration FIRST_DEAD_LETTER_RETRY = Duration.ofSeconds(1);
    private static final Duration LONGEST_DEAD_LETTER_RETRY = Duration.ofSeconds(30);

    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition roomAvailable = lock.newCondition();
    private final Map<SourceRecord, Entry> byRecord = new IdentityHashMap<>();
    private final List<Refusal> refused = new LinkedList<>();

    PendingMessages(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
    }

    /** What Kafka acknowledged, or that the record is not pending (already acknowledged, or released by a stop). */
    enum Outcome {
        WRITTEN,
        DEAD_LETTERED,
        UNKNOWN
    }

    /**
     * A message Kafka refused, waiting to be sent as a dead letter.
     *
     * @param message the MQTT message, still unacknowledged
     * @param detail why it is dead-lettered
     * @param deadLetterAttempts how many of its dead letters Kafka refused already
     * @param dueAt when to send the dead letter (later for each refused dead letter)
     */
    record Refusal(MqttInboundMessage message, String detail, int deadLetterAttempts, Instant dueAt) {
        Refusal {
            requireNonNull(message, "message is null");
            requireNonNull(detail, "detail is null");
            requireNonNull(dueAt, "dueAt is null");
        }
    }

    private record Entry(MqttInboundMessage message, String deadLetterDetail, int deadLetterAttempts) {
        boolean deadLetter() {
            return deadLetterDetail != null;
        }
    }

    /** Waits until at least one more message may be taken, at most {@code timeout}; returns the free room. */
    int awaitRoom(Duration timeout) throws InterruptedException {
        long remainingNanos = timeout.toNanos();
        lock.lock();
        try {
            while (occupied() >= capacity && remainingNanos > 0) {
                remainingNanos = roomAvailable.awaitNanos(remainingNanos);
            }
            return capacity - occupied();
        } finally {
            lock.unlock();
        }
    }

    /** The record written from {@code message} was handed to Connect. */
    void register(SourceRecord record, MqttInboundMessage message) {
        put(record, new Entry(requireNonNull(message, "message is null"), null, 0));
    }

    /** The dead letter of {@code message} was handed to Connect; {@code attempts} earlier ones were refused. */
    void registerDeadLetter(SourceRecord deadLetter, MqttInboundMessage message, String detail, int attempts) {
        put(
                deadLetter,
                new Entry(
                        requireNonNull(message, "message is null"),
                        requireNonNull(detail, "detail is null"),
                        attempts));
    }

    private void put(SourceRecord record, Entry entry) {
        requireNonNull(record, "record is null");
        lock.lock();
        try {
            if (occupied() >= capacity) {
                throw new IllegalStateException("More than " + capacity + " messages awaiting Kafka");
            }
            if (byRecord.putIfAbsent(record, entry) != null) {
                throw new IllegalStateException("Record registered twice: " + record);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Kafka acknowledged {@code record}: acknowledges its MQTT message. */
    Outcome acknowledge(SourceRecord record) {
        Entry entry;
        lock.lock();
        try {
            entry = byRecord.remove(record);
            roomAvailable.signalAll();
        } finally {
            lock.unlock();
        }
        if (entry == null) {
            return Outcome.UNKNOWN;
        }
        entry.message().acknowledgement().acknowledge();
        return entry.deadLetter() ? Outcome.DEAD_LETTERED : Outcome.WRITTEN;
    }

    /**
     * Kafka refused {@code record}: its message waits to be sent as a dead letter (at once for a record, after a growing
     * delay for a dead letter). Nothing is acknowledged.
     *
     * @param detail why, for a record; a refused dead letter keeps the detail it had
     * @return the refusal, or empty when the record is not pending (released by a stop)
     */
    Optional<Refusal> refuse(SourceRecord record, String detail, Instant now) {
        lock.lock();
        try {
            Entry entry = byRecord.remove(record);
            if (entry == null) {
                return Optional.empty();
            }
            Refusal refusal = entry.deadLetter()
                    ? new Refusal(
                            entry.message(),
                            entry.deadLetterDetail(),
                            entry.deadLetterAttempts() + 1,
                            now.plus(retryDelay(entry.deadLetterAttempts() + 1)))
                    : new Refusal(entry.message(), detail, 0, now);
            refused.add(refusal);
            return Optional.of(refusal);
        } finally {
            lock.unlock();
        }
    }

    /** Removes and returns up to {@code maximum} refusals due at {@code now}, oldest first. */
    List<Refusal> takeDue(Instant now, int maximum) {
        List<Refusal> due = new ArrayList<>();
        lock.lock();
        try {
            Iterator<Refusal> iterator = refused.iterator();
            while (iterator.hasNext() && due.size() < maximum) {
                Refusal refusal = iterator.next();
                if (!refusal.dueAt().isAfter(now)) {
                    due.add(refusal);
                    iterator.remove();
                }
            }
            return due;
        } finally {
            lock.unlock();
        }
    }

    /** Forgets every pending message without acknowledging it; returns how many there were. */
    int releaseAll() {
        lock.lock();
        try {
            int released = occupied();
            byRecord.clear();
            refused.clear();
            roomAvailable.signalAll();
            return released;
        } finally {
            lock.unlock();
        }
    }

    int size() {
        lock.lock();
        try {
            return occupied();
        } finally {
            lock.unlock();
        }
    }

    /** When the oldest pending message was received from MQTT; empty when none is pending. */
    Optional<Instant> oldestReceivedAt() {
        lock.lock();
        try {
            Instant oldest = null;
            for (Entry entry : byRecord.values()) {
                oldest = earlier(oldest, entry.message().receivedAt());
            }
            for (Refusal refusal : refused) {
                oldest = earlier(oldest, refusal.message().receivedAt());
            }
            return Optional.ofNullable(oldest);
        } finally {
            lock.unlock();
        }
    }

    /** 1 s after the first refused dead letter, doubling up to 30 s. */
    static Duration retryDelay(int refusedDeadLetters) {
        int doublings = Math.min(Math.max(refusedDeadLetters - 1, 0), 5);
        Duration delay = FIRST_DEAD_LETTER_RETRY.multipliedBy(1L << doublings);
        return delay.compareTo(LONGEST_DEAD_LETTER_RETRY) > 0 ? LONGEST_DEAD_LETTER_RETRY : delay;
    }

    private int occupied() {
        return byRecord.size() + refused.size();
    }

    private static Instant earlier(Instant current, Instant candidate) {
        return current == null || candidate.isBefore(current) ? candidate : current;
    }
}
