package io.fleetlake.bench.phase;

import static java.util.Objects.requireNonNull;

import io.fleetlake.bench.load.BacklogProducer;
import io.fleetlake.bench.load.BacklogProducer.ProduceResult;
import io.fleetlake.bench.load.BacklogTimeline.BacklogSpan;
import io.fleetlake.bench.load.Fix;
import io.fleetlake.model.Topics;
import io.fleetlake.simulator.model.Vehicle;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;

/**
 * A backlog of fixes as {@link io.fleetlake.bench.load.FleetFeed#rounds} produces it: {@code records} fixes, every
 * vehicle once per fix interval from {@code start}, staggered within the interval. Knows which fix of each vehicle comes
 * first and last, so the current state in Redis tells how far the pipeline has come.
 */
record Backlog(List<Vehicle> vehicles, Instant start, Duration fixInterval, long records) {
    Backlog {
        vehicles = List.copyOf(requireNonNull(vehicles, "vehicles is null"));
        requireNonNull(start, "start is null");
        requireNonNull(fixInterval, "fixInterval is null");
    }

    /**
     * Produces the run's next backlog into {@code gps.raw.positions}: {@code records} fixes of the feed's vehicles in
     * the event-time span after the previous backlog's, each encoded by {@code encode}, with progress on the console.
     *
     * @throws IllegalStateException when a record could not be sent
     */
    static Produced produce(PhaseContext context, long records, Function<Fix, byte[]> encode) {
        BacklogSpan span = context.timeline()
                .next(
                        Instant.now(),
                        context.settings().fixInterval(),
                        records,
                        context.feed().vehicles().size());
        Backlog backlog = new Backlog(context.feed().vehicles(), span.start(), span.fixInterval(), records);
        ProduceResult result = new BacklogProducer(context.stack().kafkaBootstrapServers())
                .produce(
                        Topics.RAW_POSITIONS,
                        context.feed().rounds(span.start(), span.fixInterval(), records),
                        encode,
                        sent -> context.console().progress("  produced %,d", sent));
        return new Produced(backlog, result);
    }

    /** A backlog and how fast it was produced. */
    record Produced(Backlog backlog, ProduceResult result) {
        Produced {
            requireNonNull(backlog, "backlog is null");
            requireNonNull(result, "result is null");
        }
    }

    /** Fixes vehicle {@code index} (of the feed's list) gets. */
    long fixesOf(int index) {
        return records / vehicles.size() + (index < records % vehicles.size() ? 1 : 0);
    }

    /** Epoch ms of the first fix of a vehicle. */
    long firstEventTime(int index) {
        return start.toEpochMilli() + index * fixInterval.toMillis() / vehicles.size();
    }

    /** Epoch ms of the last fix of a vehicle that gets at least one. */
    long lastEventTime(int index) {
        return firstEventTime(index) + (fixesOf(index) - 1) * fixInterval.toMillis();
    }

    /** The share of a vehicle's fixes up to and including the one at {@code eventTime}, 0 to 1. */
    double shareProcessed(int index, long eventTime) {
        long fixes = fixesOf(index);
        if (fixes == 0 || eventTime < firstEventTime(index)) {
            return 0;
        }
        long processed = (eventTime - firstEventTime(index)) / fixInterval.toMillis() + 1;
        return Math.min(1.0, processed / (double) fixes);
    }
}
