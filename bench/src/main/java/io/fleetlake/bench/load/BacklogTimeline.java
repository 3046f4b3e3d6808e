package io.fleetlake.bench.load;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;

/**
 * Hands out the event-time span of each backlog a run produces: in the past (no fix ahead of its Kafka timestamp) and
 * after every earlier backlog. Overlapping backlogs would give the pipeline fixes older than a vehicle's newest one
 * (late for its windows, ignored by the newer-event-wins Redis state, and now and then a duplicate (vehicle, event
 * time) that deduplication drops), so a backlog that would overlap the previous one is squeezed into the time since
 * then, with a shorter fix interval. Thread-safe.
 */
public final class BacklogTimeline {
    /** How far before its production time a backlog's last fix lies. */
    static final Duration LEAD = Duration.ofSeconds(5);

    private Instant latest = Instant.EPOCH;

    /**
     * The span of the next backlog.
     *
     * @param now when it is produced
     * @param preferredInterval the fix interval it gets unless it would overlap the previous backlog
     * @throws IllegalStateException when not even a 1 ms interval fits since the previous backlog
     */
    public synchronized BacklogSpan next(Instant now, Duration preferredInterval, long records, int vehicles) {
        requireNonNull(now, "now is null");
        requireNonNull(preferredInterval, "preferredInterval is null");
        long rounds = (records + vehicles - 1) / vehicles;
        Instant end = now.minus(LEAD);
        Instant start = end.minus(preferredInterval.multipliedBy(rounds));
        Duration interval = preferredInterval;
        if (!start.isAfter(latest)) {
            start = latest.plusMillis(1);
            interval = Duration.ofMillis(Duration.between(start, end).toMillis() / rounds);
            if (interval.toMillis() < 1) {
                throw new IllegalStateException("No room for " + rounds + " fixes per vehicle between the previous"
                        + " backlog and now; wait a few seconds between backlogs or use fewer --records");
            }
        }
        BacklogSpan span = new BacklogSpan(start, interval, rounds);
        latest = span.end();
        return span;
    }

    /**
     * @param start event time of the first fix
     * @param fixInterval time between two fixes of one vehicle
     * @param rounds fixes per vehicle (the last round may leave some vehicles out)
     */
    public record BacklogSpan(Instant start, Duration fixInterval, long rounds) {
        public BacklogSpan {
            requireNonNull(start, "start is null");
            requireNonNull(fixInterval, "fixInterval is null");
        }

        /** The end of the last round: every fix of the backlog lies before it. */
        public Instant end() {
            return start.plus(fixInterval.multipliedBy(rounds));
        }
    }
}
