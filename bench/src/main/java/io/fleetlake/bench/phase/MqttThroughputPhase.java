package io.fleetlake.bench.phase;

import static java.util.Objects.requireNonNull;

import io.fleetlake.bench.BenchStack;
import io.fleetlake.bench.load.DeviceClock;
import io.fleetlake.bench.load.Fix;
import io.fleetlake.bench.load.MqttPublishers;
import io.fleetlake.bench.observe.TrinoClient.Snapshot;
import io.fleetlake.bench.report.BenchMetrics;
import io.fleetlake.bench.report.Metric;
import io.fleetlake.model.Tables;
import io.fleetlake.simulator.MqttPositionPublisher;
import io.fleetlake.simulator.PublishCounts;
import io.fleetlake.simulator.model.Vehicle;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;

/**
 * Phase 2: the same through MQTT. Several clients publish the fleet's positions (event time = send time) with QoS 1
 * as fast as the broker acknowledges them; the end-to-end rate is the positions / (the Iceberg commit holding the last
 * one - the first publish). A warm-up batch goes through the whole path first and is not counted.
 */
public final class MqttThroughputPhase {
    private static final Duration ACKNOWLEDGE_TIMEOUT = Duration.ofMinutes(2);

    private final PhaseContext context;

    public MqttThroughputPhase(PhaseContext context) {
        this.context = requireNonNull(context, "context is null");
    }

    public void run() throws InterruptedException, SQLException, TimeoutException, ExecutionException {
        BenchStack stack = context.stack();
        long records = context.settings().mqttRecords();
        int clients = context.settings().mqttPublishers();
        DeviceClock clock = new DeviceClock(context.feed().vehicles().size());
        try (MqttPublishers publishers = MqttPublishers.connect(stack.simulator(), "fleet-bench-mqtt", clients)) {
            long warmUp = Math.max(1_000, records / 20);
            context.console().progress("MQTT: warm-up, %,d positions through the whole path (not counted)", warmUp);
            long baseline = CommitWait.total(stack, Tables.POSITIONS);
            publish(publishers, clock, warmUp);
            awaitAcknowledgements(publishers);
            CommitWait.awaitTotal(
                    stack,
                    context.console(),
                    Tables.POSITIONS,
                    baseline + warmUp,
                    context.settings().phaseTimeout());

            context.console().progress("MQTT: %d clients publish %,d positions with QoS 1", clients, records);
            baseline = CommitWait.total(stack, Tables.POSITIONS);
            PublishCounts before = publishers.counts();
            Instant start = Instant.now();
            publish(publishers, clock, records);
            awaitAcknowledgements(publishers);
            Instant acknowledged = Instant.now();
            PublishCounts counts = publishers.counts().since(before);
            if (counts.failed() > 0) {
                throw new IllegalStateException(
                        counts.failed() + " of " + counts.published() + " MQTT messages failed; see the bench log");
            }
            double publishRate = counts.acknowledged() / DrainMonitor.Drain.seconds(start, acknowledged);
            context.results()
                    .add(Metric.measured(
                            BenchMetrics.MQTT_PUBLISH_RATE,
                            publishRate,
                            String.format(
                                    Locale.ROOT,
                                    "%,d messages from %d clients (max 2,000 in flight each), first"
                                            + " publish to last PUBACK",
                                    counts.acknowledged(),
                                    clients)));
            context.console().progress("  published at %,.0f msg/s; waiting for the Iceberg commits", publishRate);
            Snapshot committed = CommitWait.awaitTotal(
                    stack,
                    context.console(),
                    Tables.POSITIONS,
                    baseline + records,
                    context.settings().phaseTimeout());
            double rate = records / DrainMonitor.Drain.seconds(start, committed.committedAt());
            context.results()
                    .add(Metric.measured(
                            BenchMetrics.MQTT_END_TO_END_RATE,
                            rate,
                            String.format(
                                    Locale.ROOT,
                                    "%,d positions: from the first publish to the Iceberg commit holding"
                                            + " the last one (%.1f s), through HiveMQ, the exactly-once Connect source, Kafka and the"
                                            + " pipeline; a warm-up batch of %,d went through first and is not counted",
                                    records,
                                    DrainMonitor.Drain.seconds(start, committed.committedAt()),
                                    warmUp)));
            context.console().progress("  end to end %,.0f msg/s", rate);
        }
    }

    private static void awaitAcknowledgements(MqttPublishers publishers) throws InterruptedException, TimeoutException {
        if (!publishers.awaitAcknowledgements(ACKNOWLEDGE_TIMEOUT)) {
            throw new TimeoutException(
                    "The broker did not acknowledge every message within " + ACKNOWLEDGE_TIMEOUT.toSeconds() + " s");
        }
    }

    /** Each client publishes the fixes of every n-th vehicle, round robin, until the clients have sent the count. */
    private void publish(MqttPublishers publishers, DeviceClock clock, long count)
            throws InterruptedException, ExecutionException {
        List<Vehicle> vehicles = context.feed().vehicles();
        int clients = publishers.size();
        ExecutorService executor = Executors.newFixedThreadPool(clients, runnable -> {
            Thread thread = new Thread(runnable, "bench-mqtt-publisher");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<Void>> done = new ArrayList<>();
            for (int client = 0; client < clients; client++) {
                int index = client;
                long share = count / clients + (client < count % clients ? 1 : 0);
                done.add(executor.submit(() -> {
                    MqttPositionPublisher publisher = publishers.get(index);
                    int vehicle = index;
                    for (long sent = 0; sent < share; sent++) {
                        Vehicle current = vehicles.get(vehicle);
                        long eventTime = clock.next(vehicle, System.currentTimeMillis());
                        Fix fix = context.feed().fix(current, Instant.ofEpochMilli(eventTime));
                        publisher.publish(fix.position(), current.payloadFormat(), current.schemaVersion());
                        vehicle += clients;
                        if (vehicle >= vehicles.size()) {
                            vehicle = index % vehicles.size();
                        }
                    }
                    return null;
                }));
            }
            for (Future<Void> future : done) {
                future.get();
            }
        } finally {
            executor.shutdownNow();
        }
    }
}
