package io.fleetlake.operations.verify;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The hop before Kafka over one window: the positions the MQTT broker accepted against the records that reached the
 * raw topic and the messages the ingest connector refused (dead-lettered as {@code INGEST_REFUSED}).
 *
 * <p>The accounting: every position the broker accepted during the window is, at its end, in the raw topic, refused,
 * still held by the broker for the connector's subscription ({@code queuedAtEnd}: queued, or sent and not yet
 * acknowledged, which the connector does only after Kafka committed the record), or lost. So
 *
 * <pre>gap = accepted − rawRecords − ingestRefused − queuedAtEnd</pre>
 *
 * <p>and a positive gap is a loss. The comparison never reports a loss that did not happen: the broker's counters are
 * read after the Kafka offsets at the window's start and before them at its end (the held messages a moment after the
 * counters, so that a position counted on arrival is queued by then), and every error of the reading
 * (a record committed to Kafka whose acknowledgement the broker has not processed yet, a device's resend written
 * twice, a record of the backlog at the window's start) makes the right side larger, never smaller. The price: losses
 * up to {@code queuedAtStart} (messages held at the start that reached Kafka during the window) can hide.
 *
 * <p>Counter resets: the broker's counters start from zero when it restarts. A counter lower than at the start, a
 * or a changed process start time means the broker restarted within the window: the
 * count since the restart is used, a lower bound of what was accepted (the gap stays a lower bound of the loss). The
 * Kafka side is counted from offsets, which never reset, and the connector's own counters (which reset with its task)
 * are not used.
 *
 * @param window how long the window was
 * @param acceptedByListener positions the broker accepted in the window, per listener
 * @param accepted their sum
 * @param brokerRestarted whether the broker restarted within the window (the accepted count is then a lower bound)
 * @param droppedIncrease messages the broker dropped in the window (any topic), when it says
 * @param queuedAtStart messages held for the position subscribers at the window's start, when known
 * @param queuedAtEnd the same at the window's end, when known
 * @param rawRecords records committed to the raw topic in the window
 * @param ingestRefused {@code INGEST_REFUSED} dead letters committed in the window
 * @param gap accepted positions neither in Kafka, refused nor held at the end; 0 when not reconciled
 * @param notReconciled why the gap could not be computed (the broker serves no such count, its metrics could not be
 *     read); empty when it was
 */
public record IngestHopReconciliation(
        Duration window,
        Map<String, Long> acceptedByListener,
        long accepted,
        boolean brokerRestarted,
        OptionalLong droppedIncrease,
        OptionalLong queuedAtStart,
        OptionalLong queuedAtEnd,
        long rawRecords,
        long ingestRefused,
        long gap,
        Optional<String> notReconciled) {
    public IngestHopReconciliation {
        requireNonNull(window, "window is null");
        acceptedByListener =
                Map.copyOf(new TreeMap<>(requireNonNull(acceptedByListener, "acceptedByListener is null")));
        requireNonNull(droppedIncrease, "droppedIncrease is null");
        requireNonNull(queuedAtStart, "queuedAtStart is null");
        requireNonNull(queuedAtEnd, "queuedAtEnd is null");
        requireNonNull(notReconciled, "notReconciled is null");
        if (gap < 0) {
            throw new IllegalArgumentException("gap must not be negative: " + gap);
        }
    }

    /**
     * Compares the broker's counters at the window's ends with what reached Kafka in between.
     *
     * @param start the broker's counters at the window's start (read after the Kafka offsets)
     * @param end the broker's counters at the window's end (read before the Kafka offsets)
     * @param rawRecords records committed to the raw topic between the two readings of its offsets
     * @param ingestRefused {@code INGEST_REFUSED} dead letters committed between them
     */
    public static IngestHopReconciliation compare(
            BrokerCounters start, BrokerCounters end, long rawRecords, long ingestRefused, Duration window) {
        requireNonNull(start, "start is null");
        requireNonNull(end, "end is null");
        boolean processRestarted = start.startedAt().isPresent()
                && end.startedAt().isPresent()
                && !start.startedAt().equals(end.startedAt());
        boolean restarted = processRestarted;
        Map<String, Long> accepted = new TreeMap<>();
        for (Map.Entry<String, Long> listener : end.acceptedByListener().entrySet()) {
            // A listener's counter appears with the first position it receives: absent at the start means 0 then.
            long before = start.acceptedByListener().getOrDefault(listener.getKey(), 0L);
            boolean reset = processRestarted || listener.getValue() < before;
            restarted |= reset;
            accepted.put(listener.getKey(), reset ? listener.getValue() : listener.getValue() - before);
        }
        OptionalLong dropped = OptionalLong.empty();
        if (end.dropped().isPresent()) {
            long after = end.dropped().getAsLong();
            long before = start.dropped().orElse(0);
            boolean reset = processRestarted || after < before;
            restarted |= reset;
            dropped = OptionalLong.of(reset ? after : after - before);
        }
        long acceptedTotal =
                accepted.values().stream().mapToLong(Long::longValue).sum();
        Optional<String> notReconciled = Optional.empty();
        if (end.acceptedByListener().isEmpty()) {
            notReconciled = Optional.of("the MQTT broker serves no count of accepted position publishes ("
                    + BrokerCounters.ACCEPTED + "); Mosquitto counts the publishes of every topic together");
        } else if (end.queued().isEmpty()) {
            notReconciled = Optional.of("the MQTT broker serves no size of the position subscribers' queues ("
                    + BrokerCounters.QUEUED + "), so messages in flight cannot be told from lost ones");
        }
        long gap = notReconciled.isPresent()
                ? 0
                : Math.max(
                        0,
                        acceptedTotal
                                - rawRecords
                                - ingestRefused
                                - end.queued().getAsLong());
        return new IngestHopReconciliation(
                window,
                accepted,
                acceptedTotal,
                restarted,
                dropped,
                start.queued(),
                end.queued(),
                rawRecords,
                ingestRefused,
                gap,
                notReconciled);
    }

    /** The reconciliation could not be made; see {@link #notReconciled()}. */
    public static IngestHopReconciliation notReconciled(Duration window, String reason) {
        return new IngestHopReconciliation(
                window,
                Map.of(),
                0,
                false,
                OptionalLong.empty(),
                OptionalLong.empty(),
                OptionalLong.empty(),
                0,
                0,
                0,
                Optional.of(reason));
    }

    public boolean reconciled() {
        return notReconciled.isEmpty();
    }

    /** Whether the broker dropped messages in the window. */
    public boolean dropped() {
        return droppedIncrease.isPresent() && droppedIncrease.getAsLong() > 0;
    }

    /** No gap and no dropped message; true when the gap could not be computed and nothing was dropped. */
    public boolean clean() {
        return gap == 0 && !dropped();
    }
}
