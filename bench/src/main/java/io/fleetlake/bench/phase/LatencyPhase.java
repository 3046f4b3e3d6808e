package io.fleetlake.bench.phase;

import static java.util.Objects.requireNonNull;

import io.fleetlake.bench.BenchStack;
import io.fleetlake.bench.load.DeviceClock;
import io.fleetlake.bench.load.Fix;
import io.fleetlake.bench.load.MqttPublishers;
import io.fleetlake.bench.observe.CommittedRecords;
import io.fleetlake.bench.observe.ConsumerLag;
import io.fleetlake.bench.observe.RedisState;
import io.fleetlake.bench.observe.RedisState.VehicleStamp;
import io.fleetlake.bench.observe.TrinoPollingConnection;
import io.fleetlake.bench.phase.FixStages.Stage;
import io.fleetlake.bench.report.BenchMetrics;
import io.fleetlake.bench.report.Metric;
import io.fleetlake.bench.report.MetricDefinition;
import io.fleetlake.bench.report.ResultCollector.Window;
import io.fleetlake.bench.stats.LatencySummary;
import io.fleetlake.bench.stats.Percentiles;
import io.fleetlake.bench.stats.RatePacer;
import io.fleetlake.model.Tables;
import io.fleetlake.model.Topics;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.simulator.MqttPositionPublisher;
import io.fleetlake.simulator.model.Vehicle;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.apache.iceberg.util.BucketUtil;

/**
 * Phase 3: latency at a fixed offered load over MQTT, event time = send time. One client offers {@code --rate}
 * messages per second, vehicle after vehicle, for {@code --duration}; the first {@code warm-up} seconds are excluded.
 * Measured from the device timestamp to (a) visible in Redis ({@code updated_at - event_time} of the vehicles' hashes,
 * a sample of vehicles read with pipelined requests every 100 ms), (b) committed in Iceberg (the {@code committed_at}
 * of the snapshot that added the row's data file: Trino's {@code $path} of the row joined with {@code $entries} and
 * {@code $snapshots}), and (c) returned by a Trino query ({@code max(event_time)} per vehicle of a sample polled every
 * second; the rows up to that maximum became visible when the query returned).
 */
public final class LatencyPhase {
    /** The phase's window in the CPU report. */
    public static final String WINDOW = "latency";

    private static final Duration REDIS_POLL = Duration.ofMillis(100);
    /**
     * Every poll is a Trino query that competes with the pipeline for the CPU; at 500 ms the polls took about a fifth
     * of a core on 2 cores, so they run every second (the figure includes up to one poll interval).
     */
    private static final Duration TRINO_POLL = Duration.ofSeconds(1);

    private static final Duration LAG_POLL = Duration.ofSeconds(1);
    private static final int REDIS_SAMPLE = 500;
    private static final int ICEBERG_BUCKETS = 16;

    private final PhaseContext context;

    public LatencyPhase(PhaseContext context) {
        this.context = requireNonNull(context, "context is null");
    }

    public void run() throws InterruptedException, SQLException, ExecutionException, TimeoutException {
        BenchStack stack = context.stack();
        double rate = context.settings().rate();
        Duration duration = context.settings().duration();
        List<Vehicle> vehicles = context.feed().vehicles();
        List<String> redisSample = sample(vehicles, REDIS_SAMPLE);
        // Vehicles of one Iceberg bucket: the poll reads 1/16 of the new data files, so that it costs the pipeline
        // little CPU.
        List<String> trinoSample = vehicles.stream()
                .map(Vehicle::vehicleId)
                .filter(id -> (BucketUtil.hash(id) & Integer.MAX_VALUE) % ICEBERG_BUCKETS == 0)
                .toList();
        SendLog sendLog = new SendLog(trinoSample);
        FixStages stages = new FixStages();
        DeviceClock clock = new DeviceClock(vehicles.size());

        context.console()
                .progress(
                        "Latency: %,.0f msg/s over MQTT for %d s (the first %d s are warm-up), %,d vehicles",
                        rate, duration.toSeconds(), context.settings().warmUp().toSeconds(), vehicles.size());
        Instant start = Instant.now();
        long measureFrom = start.plus(context.settings().warmUp()).toEpochMilli();
        long measureTo = start.plus(duration).toEpochMilli();
        AtomicBoolean publishing = new AtomicBoolean(true);
        AtomicLong sent = new AtomicLong();
        long sentInWindow = 0;
        AtomicLong maximumLag = new AtomicLong(-1);
        ExecutorService executor = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "bench-latency");
            thread.setDaemon(true);
            return thread;
        });
        try (MqttPublishers publishers =
                        MqttPublishers.connect(stack.simulator(), "fleet-bench-latency", 1, stack.gatewayLogin());
                TrinoPollingConnection trino =
                        new TrinoPollingConnection(stack.settings().trino(TrinoUser.MONITOR));
                CommittedRecords kafka = new CommittedRecords(
                        stack.kafkaBootstrapServers(),
                        Topics.RAW_POSITIONS,
                        (vehicleId, eventTime, receivedAt, seen) -> {
                            stages.record(vehicleId, eventTime, Stage.RECEIVED, receivedAt);
                            stages.record(vehicleId, eventTime, Stage.KAFKA, seen);
                        })) {
            kafka.start();
            AtomicBoolean observing = new AtomicBoolean(true);
            Future<List<Long>> redisLatencies =
                    executor.submit(() -> pollRedis(redisSample, measureFrom, measureTo, observing, stages));
            Future<List<Long>> trinoLatencies =
                    executor.submit(() -> pollTrino(trino, sendLog, measureFrom, measureTo, observing));
            Future<Void> lag = executor.submit(() -> {
                pollLag(maximumLag, publishing);
                return null;
            });
            MqttPositionPublisher publisher = publishers.get(0);
            RatePacer pacer = RatePacer.perSecond(rate);
            long endNanos = System.nanoTime() + duration.toNanos();
            int vehicle = 0;
            while (true) {
                long due = pacer.nextDue(System.nanoTime());
                if (due >= endNanos) {
                    break;
                }
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                Vehicle current = vehicles.get(vehicle);
                long eventTime = clock.next(vehicle, System.currentTimeMillis());
                Fix fix = context.feed().fix(current, Instant.ofEpochMilli(eventTime));
                sendLog.sent(current.vehicleId(), eventTime);
                String vehicleId = current.vehicleId();
                publisher
                        .publish(fix.position(), current.payloadFormat(), current.schemaVersion())
                        .thenRun(() ->
                                stages.record(vehicleId, eventTime, Stage.ACKNOWLEDGED, System.currentTimeMillis()));
                sent.incrementAndGet();
                if (eventTime >= measureFrom && eventTime < measureTo) {
                    sentInWindow++;
                }
                vehicle = (vehicle + 1) % vehicles.size();
            }
            Instant stopped = Instant.now();
            publishing.set(false);
            if (!publishers.awaitAcknowledgements(Duration.ofMinutes(1))) {
                context.results()
                        .note("Latency: the broker had not acknowledged every message one minute after the last"
                                + " publish; unacknowledged fixes may be missing from the percentiles.");
            }
            double offered = sent.get() / DrainMonitor.Drain.seconds(start, stopped);
            context.results()
                    .add(Metric.measured(
                            BenchMetrics.OFFERED_RATE,
                            offered,
                            String.format(
                                    Locale.ROOT,
                                    "%,d messages in %.1f s from one paced MQTT client (QoS 1)",
                                    sent.get(),
                                    DrainMonitor.Drain.seconds(start, stopped))));
            context.console().progress("  offered %,.0f msg/s; waiting until every sampled row is visible", offered);
            // The last rows become visible one or two checkpoints later.
            sendLog.awaitAllVisible(
                    context.settings().checkpointInterval().multipliedBy(4).plusSeconds(20));
            observing.set(false);
            long invisible = sendLog.vehiclesNotFullyVisible();
            if (invisible > 0) {
                context.results()
                        .note(String.format(
                                Locale.ROOT,
                                "Latency: %d of the %d vehicles polled through"
                                        + " Trino still lacked their last fixes when the wait ended; the Trino percentiles leave those"
                                        + " fixes out, so they are lower than the truth.",
                                invisible,
                                trinoSample.size()));
            }
            record(
                    redisLatencies.get(),
                    List.of(BenchMetrics.REDIS_P50, BenchMetrics.REDIS_P95, BenchMetrics.REDIS_P99),
                    Optional.empty(),
                    String.format(
                            Locale.ROOT,
                            "updated_at - event_time of every change of the Redis hashes of %d"
                                    + " vehicles, read with pipelined HMGET every 100 ms; fixes sent in the first %d s"
                                    + " excluded (warm-up)",
                            redisSample.size(),
                            context.settings().warmUp().toSeconds()));
            recordIceberg(stack, measureFrom, measureTo, sentInWindow, stages);
            Duration interval = context.settings().checkpointInterval();
            record(
                    trinoLatencies.get(),
                    List.of(
                            BenchMetrics.trinoVisible("p50"),
                            BenchMetrics.trinoVisible("p95"),
                            BenchMetrics.trinoVisible("p99")),
                    Optional.of(BenchMetrics.trinoVisible("max")),
                    String.format(
                            Locale.ROOT,
                            "time the Trino query returned - event_time, for every fix of %d"
                                    + " vehicles (one Iceberg bucket) polled with max(event_time) per vehicle every second;"
                                    + " warm-up excluded",
                            trinoSample.size()));
            context.results().breakdown(stages.breakdown(measureFrom, measureTo, hopNotes(redisSample.size())));
            context.results().window(new Window(WINDOW, start, Instant.now(), OptionalLong.of(sent.get())));
            lag.get();
            if (maximumLag.get() >= 0) {
                context.results()
                        .add(Metric.measured(
                                BenchMetrics.CONSUMER_LAG,
                                maximumLag.get(),
                                "end offsets - committed offsets of group fleet-pipeline on gps.raw.positions, every second"
                                        + " while publishing (the pipeline commits offsets at checkpoints)"));
            }
        } finally {
            executor.shutdownNow();
        }
    }

    private List<String> hopNotes(int redisVehicles) {
        return List.of(
                "Per fix of the measured window (warm-up excluded), from timestamps the path carries: send time = the"
                        + " fix's event time (the bench's clock); received = the Connect source's mqtt.received-at header"
                        + " (also the Kafka record timestamp); committed in Kafka = when a read_committed consumer of the"
                        + " bench got the record (its transaction had committed); PUBACK = when the publishing client"
                        + " got the broker's acknowledgement; Redis = the pipeline's updated_at (only the "
                        + redisVehicles
                        + " vehicles whose hashes are polled every 100 ms); Iceberg = committed_at of the snapshot that"
                        + " added the row. All on this machine's clock.",
                "The pipeline carries no timestamp of its own read from Kafka: its first is Redis updated_at, so"
                        + " \"committed in Kafka -> written to Redis\" is the pipeline's read, processing and Redis"
                        + " write together. A hop is counted over the fixes seen at both of its ends (\"fixes\").");
    }

    private void recordIceberg(BenchStack stack, long measureFrom, long measureTo, long sentInWindow, FixStages stages)
            throws SQLException {
        Duration interval = context.settings().checkpointInterval();
        List<MetricDefinition> definitions = List.of(
                BenchMetrics.icebergCommit("p50", interval),
                BenchMetrics.icebergCommit("p95", interval),
                BenchMetrics.icebergCommit("p99", interval));
        String sql = "SELECT p.vehicle_id, to_unixtime(p.event_time) * 1000, to_unixtime(s.committed_at) * 1000"
                + " FROM " + Tables.qualified(Tables.POSITIONS) + " p"
                + " JOIN " + Tables.NAMESPACE + ".\"" + Tables.POSITIONS + "$entries\" e"
                + " ON p.\"$path\" = e.data_file.file_path"
                + " JOIN " + Tables.NAMESPACE + ".\"" + Tables.POSITIONS + "$snapshots\" s"
                + " ON s.snapshot_id = e.snapshot_id"
                + " WHERE e.status <> 2"
                + " AND p.event_time >= from_unixtime(" + measureFrom / 1000.0 + ")"
                + " AND p.event_time < from_unixtime(" + measureTo / 1000.0 + ")";
        List<Long> latencies = stack.trino().query(sql, result -> {
            String vehicleId = result.getString(1);
            long eventTime = Math.round(result.getDouble(2));
            long committedAt = Math.round(result.getDouble(3));
            stages.record(vehicleId, eventTime, Stage.ICEBERG, committedAt);
            return committedAt - eventTime;
        });
        if (latencies.size() < sentInWindow) {
            context.results()
                    .note(String.format(
                            Locale.ROOT,
                            "Latency: %,d of the %,d fixes sent in the measured window were committed in Iceberg when"
                                    + " the commit percentiles were queried; the others are left out, so those"
                                    + " percentiles are lower than the truth.",
                            latencies.size(),
                            sentInWindow));
        }
        record(
                latencies,
                definitions,
                Optional.empty(),
                "committed_at of the snapshot that added each row's data file - the"
                        + " row's event_time, for every row of the measured window: Trino's hidden \"$path\" column joined"
                        + " with \"positions$entries\" (data_file.file_path, snapshot_id) and \"positions$snapshots\"");
    }

    private void record(
            List<Long> latencies,
            List<MetricDefinition> percentiles,
            Optional<MetricDefinition> maximum,
            String method) {
        if (latencies.isEmpty()) {
            context.results().notMeasured(percentiles, "no latency was observed in the measured window");
            maximum.ifPresent(definition -> context.results()
                    .notMeasured(List.of(definition), "no latency was observed in the measured window"));
            return;
        }
        LatencySummary summary = Percentiles.summarize(
                latencies.stream().mapToLong(Long::longValue).toArray());
        String described = method + String.format(Locale.ROOT, "; %,d observations", summary.count());
        context.results().add(Metric.measured(percentiles.get(0), summary.p50(), described));
        context.results().add(Metric.measured(percentiles.get(1), summary.p95(), described));
        context.results().add(Metric.measured(percentiles.get(2), summary.p99(), described));
        maximum.ifPresent(definition -> context.results().add(Metric.measured(definition, summary.max(), described)));
        context.console()
                .progress(
                        "  %s: p50 %,d ms, p95 %,d ms, p99 %,d ms, max %,d ms (%,d observations)",
                        percentiles.get(0).name().replace(" p50", ""),
                        summary.p50(),
                        summary.p95(),
                        summary.p99(),
                        summary.max(),
                        summary.count());
    }

    private List<Long> pollRedis(
            List<String> vehicleIds, long measureFrom, long measureTo, AtomicBoolean observing, FixStages stages)
            throws InterruptedException {
        Map<String, Long> lastSeen = new HashMap<>();
        List<Long> latencies = new ArrayList<>();
        try (RedisState redis = new RedisState(context.stack().redisUri())) {
            while (observing.get()) {
                List<Optional<VehicleStamp>> stamps = redis.stamps(vehicleIds);
                for (int index = 0; index < vehicleIds.size(); index++) {
                    Optional<VehicleStamp> stamp = stamps.get(index);
                    if (stamp.isEmpty()) {
                        continue;
                    }
                    Long previous =
                            lastSeen.put(vehicleIds.get(index), stamp.get().eventTime());
                    long eventTime = stamp.get().eventTime();
                    if (previous == null || previous != eventTime) {
                        stages.record(
                                vehicleIds.get(index),
                                eventTime,
                                Stage.REDIS,
                                stamp.get().updatedAt());
                        if (eventTime >= measureFrom && eventTime < measureTo) {
                            latencies.add(stamp.get().updatedAt() - eventTime);
                        }
                    }
                }
                TimeUnit.MILLISECONDS.sleep(REDIS_POLL.toMillis());
            }
        }
        return latencies;
    }

    private List<Long> pollTrino(
            TrinoPollingConnection trino, SendLog sendLog, long measureFrom, long measureTo, AtomicBoolean observing)
            throws InterruptedException, SQLException {
        String sql = "SELECT vehicle_id, to_unixtime(max(event_time)) * 1000 FROM "
                + Tables.qualified(Tables.POSITIONS) + " WHERE vehicle_id IN ("
                + sendLog.vehicleIds().stream().map(id -> "'" + id + "'").collect(Collectors.joining(", "))
                + ") AND event_time >= from_unixtime(" + (measureFrom - 60_000) / 1000.0 + ") GROUP BY vehicle_id";
        List<Long> latencies = new ArrayList<>();
        while (observing.get()) {
            long pollStarted = System.nanoTime();
            List<Map.Entry<String, Long>> maxima =
                    trino.query(sql, result -> Map.entry(result.getString(1), Math.round(result.getDouble(2))));
            long returned = System.currentTimeMillis();
            for (Map.Entry<String, Long> maximum : maxima) {
                for (long eventTime : sendLog.newlyVisible(maximum.getKey(), maximum.getValue())) {
                    if (eventTime >= measureFrom && eventTime < measureTo) {
                        latencies.add(returned - eventTime);
                    }
                }
            }
            long remaining = TRINO_POLL.toNanos() - (System.nanoTime() - pollStarted);
            if (remaining > 0) {
                TimeUnit.NANOSECONDS.sleep(remaining);
            }
        }
        return latencies;
    }

    private void pollLag(AtomicLong maximumLag, AtomicBoolean publishing) throws InterruptedException {
        try (ConsumerLag lag = new ConsumerLag(context.stack().kafkaBootstrapServers())) {
            while (publishing.get()) {
                long current = lag.lag("fleet-pipeline", Topics.RAW_POSITIONS);
                maximumLag.accumulateAndGet(current, Math::max);
                TimeUnit.MILLISECONDS.sleep(LAG_POLL.toMillis());
            }
        }
    }

    private static List<String> sample(List<Vehicle> vehicles, int size) {
        List<String> sample = new ArrayList<>();
        int step = Math.max(1, vehicles.size() / size);
        for (int index = 0; index < vehicles.size() && sample.size() < size; index += step) {
            sample.add(vehicles.get(index).vehicleId());
        }
        return sample;
    }

    /**
     * The event times sent for the vehicles the Trino poll watches, and how far each vehicle is visible. Thread-safe.
     */
    static final class SendLog {
        private final Map<String, List<Long>> sent = new HashMap<>();
        private final Map<String, Long> visibleUpTo = new HashMap<>();

        SendLog(List<String> vehicleIds) {
            vehicleIds.forEach(id -> sent.put(id, new ArrayList<>()));
        }

        synchronized List<String> vehicleIds() {
            return List.copyOf(sent.keySet());
        }

        synchronized void sent(String vehicleId, long eventTime) {
            List<Long> times = sent.get(vehicleId);
            if (times != null) {
                times.add(eventTime);
            }
        }

        /** The event times sent for the vehicle that are at most {@code maximum} and were not visible before. */
        synchronized List<Long> newlyVisible(String vehicleId, long maximum) {
            long previous = visibleUpTo.getOrDefault(vehicleId, Long.MIN_VALUE);
            if (maximum <= previous) {
                return List.of();
            }
            visibleUpTo.put(vehicleId, maximum);
            notifyAll();
            return sent.getOrDefault(vehicleId, List.of()).stream()
                    .filter(time -> time > previous && time <= maximum)
                    .toList();
        }

        /** Waits until every vehicle's last sent fix has been seen, at most {@code timeout}. */
        synchronized void awaitAllVisible(Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!allVisible()) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    return;
                }
                TimeUnit.NANOSECONDS.timedWait(this, remaining);
            }
        }

        synchronized long vehiclesNotFullyVisible() {
            return sent.entrySet().stream()
                    .filter(vehicle -> !vehicle.getValue().isEmpty()
                            && visibleUpTo.getOrDefault(vehicle.getKey(), Long.MIN_VALUE)
                                    < vehicle.getValue().get(vehicle.getValue().size() - 1))
                    .count();
        }

        private boolean allVisible() {
            return vehiclesNotFullyVisible() == 0;
        }
    }
}
