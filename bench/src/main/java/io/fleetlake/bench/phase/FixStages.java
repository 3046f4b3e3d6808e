package io.fleetlake.bench.phase;

import static java.util.Objects.requireNonNull;

import io.fleetlake.bench.report.BenchMetrics;
import io.fleetlake.bench.report.Breakdown;
import io.fleetlake.bench.stats.LatencySummary;
import io.fleetlake.bench.stats.Percentiles;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each fix of the latency run reached each point of the path, from the timestamps the path already carries: the
 * device's send time (the fix's event time), the Connect source's receive time ({@code mqtt.received-at}), the moment
 * a {@code read_committed} consumer saw it in Kafka (its transaction committed), the broker's PUBACK at the device,
 * the pipeline's {@code updated_at} in Redis and the {@code committed_at} of the Iceberg snapshot that added it. A
 * fix is known by its vehicle and event time (the bench gives every fix of a vehicle its own event time). The first
 * time a stage is seen for a fix counts (a resend does not move it). Thread-safe.
 */
final class FixStages {
    /** The hops reported, each from one stage to a later one. */
    static final List<Hop> HOPS = List.of(
            new Hop("device -> received by the Connect source", Stage.SENT, Stage.RECEIVED),
            new Hop("received -> committed in Kafka", Stage.RECEIVED, Stage.KAFKA),
            new Hop("committed in Kafka -> PUBACK at the device", Stage.KAFKA, Stage.ACKNOWLEDGED),
            new Hop("committed in Kafka -> written to Redis by the pipeline", Stage.KAFKA, Stage.REDIS),
            new Hop("committed in Kafka -> committed in Iceberg", Stage.KAFKA, Stage.ICEBERG),
            new Hop("device -> PUBACK (what the device waits for)", Stage.SENT, Stage.ACKNOWLEDGED),
            new Hop("device -> committed in Kafka", Stage.SENT, Stage.KAFKA),
            new Hop("device -> Redis", Stage.SENT, Stage.REDIS),
            new Hop("device -> committed in Iceberg", Stage.SENT, Stage.ICEBERG));

    private static final long UNSEEN = Long.MIN_VALUE;

    private final Map<FixKey, long[]> times = new ConcurrentHashMap<>();

    /** Records when a fix reached a stage (epoch ms), unless an earlier time was recorded for it. */
    void record(String vehicleId, long eventTime, Stage stage, long epochMillis) {
        if (stage == Stage.SENT) {
            throw new IllegalArgumentException("The send time of a fix is its event time");
        }
        long[] stages = times.computeIfAbsent(new FixKey(vehicleId, eventTime), key -> {
            long[] fresh = new long[Stage.values().length];
            Arrays.fill(fresh, UNSEEN);
            fresh[Stage.SENT.ordinal()] = eventTime;
            return fresh;
        });
        synchronized (stages) {
            if (stages[stage.ordinal()] == UNSEEN || epochMillis < stages[stage.ordinal()]) {
                stages[stage.ordinal()] = epochMillis;
            }
        }
    }

    /**
     * The latencies of one hop over the fixes sent in {@code [from, to)} (epoch ms) that reached both of its stages.
     */
    long[] latencies(Hop hop, long from, long to) {
        List<Long> latencies = new ArrayList<>();
        for (Map.Entry<FixKey, long[]> fix : times.entrySet()) {
            long eventTime = fix.getKey().eventTime();
            if (eventTime < from || eventTime >= to) {
                continue;
            }
            long[] stages = fix.getValue();
            synchronized (stages) {
                long start = stages[hop.from().ordinal()];
                long end = stages[hop.to().ordinal()];
                if (start != UNSEEN && end != UNSEEN) {
                    latencies.add(end - start);
                }
            }
        }
        return latencies.stream().mapToLong(Long::longValue).toArray();
    }

    /** Percentiles per hop over the fixes sent in {@code [from, to)}, or the reason there are none. */
    Breakdown breakdown(long from, long to, List<String> notes) {
        List<Breakdown.Row> rows = new ArrayList<>();
        for (Hop hop : HOPS) {
            long[] latencies = latencies(hop, from, to);
            if (latencies.length == 0) {
                rows.add(new Breakdown.Row(
                        hop.label(),
                        List.of(
                                Optional.empty(),
                                Optional.empty(),
                                Optional.empty(),
                                Optional.empty(),
                                Optional.of(0.0))));
                continue;
            }
            LatencySummary summary = Percentiles.summarize(latencies);
            rows.add(Breakdown.Row.of(
                    hop.label(), summary.p50(), summary.p95(), summary.p99(), summary.max(), summary.count()));
        }
        if (rows.stream().allMatch(row -> row.values().get(0).isEmpty())) {
            return BenchMetrics.HOPS.notMeasured("no fix of the measured window was seen at two points of the path");
        }
        return BenchMetrics.HOPS.measured("hop", List.of("p50", "p95", "p99", "max", "fixes"), rows, notes);
    }

    /** The points of the path, in the order a fix normally passes them. */
    enum Stage {
        SENT,
        RECEIVED,
        KAFKA,
        ACKNOWLEDGED,
        REDIS,
        ICEBERG
    }

    record Hop(String label, Stage from, Stage to) {
        Hop {
            requireNonNull(label, "label is null");
            requireNonNull(from, "from is null");
            requireNonNull(to, "to is null");
        }
    }

    private record FixKey(String vehicleId, long eventTime) {
        FixKey {
            requireNonNull(vehicleId, "vehicleId is null");
        }
    }
}
