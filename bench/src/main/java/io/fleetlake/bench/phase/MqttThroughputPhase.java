package io.fleetlake.bench.phase;

import static java.util.Objects.requireNonNull;

import io.fleetlake.bench.BenchSettings;
import io.fleetlake.bench.BenchStack;
import io.fleetlake.bench.load.DeviceClock;
import io.fleetlake.bench.load.MqttLogin;
import io.fleetlake.bench.load.MqttPublishers;
import io.fleetlake.bench.load.MqttPublishers.Ledger;
import io.fleetlake.bench.load.MqttPublishers.Mix;
import io.fleetlake.bench.load.MqttPublishers.MixRun;
import io.fleetlake.bench.load.MqttPublishers.Reconciliation;
import io.fleetlake.bench.observe.ConsumerLag;
import io.fleetlake.bench.observe.TrinoPollingConnection.Snapshot;
import io.fleetlake.bench.report.BenchMetrics;
import io.fleetlake.bench.report.Metric;
import io.fleetlake.bench.report.MetricDefinition;
import io.fleetlake.model.Position;
import io.fleetlake.model.Tables;
import io.fleetlake.model.Topics;
import io.fleetlake.model.codec.DecodeResult;
import io.fleetlake.model.codec.PositionCodec;
import io.fleetlake.operations.verify.RawPayloads;
import io.fleetlake.simulator.model.Vehicle;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.component.Component;
import io.fleetlake.stack.component.ProcessComponent;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Phase 2: the fleet's positions through MQTT, as a real fleet sends them. Many devices, each on its own connection,
 * publish a fix every {@value #DEVICE_INTERVAL_SECONDS} s, and a few gateways publish the rest of
 * {@value #OFFERED_RATE} msg/s for the other vehicles within the broker's receive maximum, paced, for
 * {@code --mqtt-records} / {@value #OFFERED_RATE} seconds ({@code --mqtt-records 1500000}: the five minutes).
 * A warm-up of the same mix goes through the whole path first and is not counted.
 *
 * <p>It reports the rate Kafka took the messages at while they were offered, every broker acknowledgement checked
 * against Kafka (lost and duplicated messages, by vehicle and event time), the CPU the MQTT broker and the Connect
 * worker spent per million messages, and as before the rate from the first publish to the Iceberg commit holding the
 * last position.
 */
public final class MqttThroughputPhase {
    /** The rate the issue asks the MQTT path to sustain. */
    public static final double OFFERED_RATE = 5_000;

    static final long DEVICE_INTERVAL_SECONDS = 2;
    static final int MAXIMUM_DEVICES = 1_000;

    private static final Duration ACKNOWLEDGE_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration KAFKA_POLL_INTERVAL = Duration.ofMillis(250);
    private static final Duration LATE_WAIT = Duration.ofMinutes(1);

    private final PhaseContext context;

    public MqttThroughputPhase(PhaseContext context) {
        this.context = requireNonNull(context, "context is null");
    }

    /**
     * The mix for the bench's settings: {@value #OFFERED_RATE} msg/s for {@code mqttRecords / rate} seconds; devices:
     * half the fleet, at most {@value #MAXIMUM_DEVICES} and at most one per 20 messages of the run (so a tiny run does
     * not spend its time connecting); gateways: {@code --mqtt-publishers}.
     */
    static Mix mix(BenchSettings settings) {
        Duration duration =
                Duration.ofMillis(Math.max(1_000, Math.round(settings.mqttRecords() * 1000 / OFFERED_RATE)));
        int devices = (int)
                Math.min(Math.min(MAXIMUM_DEVICES, settings.vehicles() / 2), Math.max(1, settings.mqttRecords() / 20));
        return new Mix(
                OFFERED_RATE,
                duration,
                devices,
                Duration.ofSeconds(DEVICE_INTERVAL_SECONDS),
                settings.mqttPublishers());
    }

    public void run() throws InterruptedException, SQLException, TimeoutException, ExecutionException {
        BenchStack stack = context.stack();
        Mix mix = mix(context.settings());
        List<Vehicle> vehicles = context.feed().vehicles();
        DeviceClock clock = new DeviceClock(vehicles.size());
        context.console()
                .progress(
                        "MQTT: connecting %,d device clients (one fix every %d s each) and %d gateway clients",
                        mix.devices(), DEVICE_INTERVAL_SECONDS, mix.gateways());
        // The device clients log in as their vehicles' devices, the gateways as the stack's bench gateway.
        List<MqttLogin> devices = stack.deviceLogins(vehicles.subList(0, mix.devices()).stream()
                .map(Vehicle::vehicleId)
                .toList());
        try (MqttPublishers publishers = MqttPublishers.connect(
                        stack.simulator(), "fleet-bench-mqtt", mix, stack.gatewayLogin(), devices);
                ConsumerLag kafka = new ConsumerLag(stack.kafkaBootstrapServers())) {
            Mix warmUp = new Mix(
                    mix.rate(),
                    Duration.ofMillis(Math.max(2_000, mix.duration().toMillis() / 20)),
                    mix.devices(),
                    mix.deviceInterval(),
                    mix.gateways());
            context.console()
                    .progress("MQTT: warm-up, %,d positions through the whole path (not counted)", warmUp.messages());
            long baseline = CommitWait.total(stack, Tables.POSITIONS);
            MixRun warm = publishers.publish(warmUp, vehicles, context.feed(), clock);
            awaitAcknowledgements(publishers);
            CommitWait.awaitTotal(
                    stack,
                    context.console(),
                    Tables.POSITIONS,
                    baseline + warm.ledger().acknowledgedCount(),
                    context.settings().phaseTimeout());

            context.console()
                    .progress(
                            "MQTT: %,.0f msg/s for %d s: %,.0f msg/s from %,d devices, %,.0f msg/s from %d gateways",
                            mix.rate(),
                            mix.duration().toSeconds(),
                            mix.deviceRate(),
                            mix.devices(),
                            mix.gatewayRate(),
                            mix.gateways());
            Map<TopicPartition, Long> startOffsets = kafka.endOffsets(Topics.RAW_POSITIONS);
            Optional<ProcessHandle> broker = process(stack, FleetStack.MQTT);
            Optional<ProcessHandle> connect = process(stack, FleetStack.CONNECT);
            Optional<Duration> brokerCpuBefore = cpu(broker);
            Optional<Duration> connectCpuBefore = cpu(connect);
            baseline = CommitWait.total(stack, Tables.POSITIONS);

            MixRun run = publishers.publish(mix, vehicles, context.feed(), clock);
            long inKafkaWhileOffered = total(kafka.endOffsets(Topics.RAW_POSITIONS)) - total(startOffsets);
            awaitAcknowledgements(publishers);
            Instant acknowledged = Instant.now();
            Ledger ledger = run.ledger();
            long acknowledgedCount = ledger.acknowledgedCount();
            Instant inKafka = awaitKafka(kafka, startOffsets, acknowledgedCount);
            Optional<Duration> brokerCpuAfter = cpu(broker);
            Optional<Duration> connectCpuAfter = cpu(connect);

            double offeredSeconds = seconds(run.start(), run.end());
            double publishRate = acknowledgedCount / seconds(run.start(), acknowledged);
            double kafkaRate = inKafkaWhileOffered / offeredSeconds;
            context.results()
                    .add(Metric.measured(
                            BenchMetrics.MQTT_PUBLISH_RATE,
                            publishRate,
                            String.format(
                                    Locale.ROOT,
                                    "%,d of %,d messages acknowledged, first publish to last PUBACK; offered %,.0f"
                                            + " msg/s (%,.0f asked) from %,d devices and %d gateways",
                                    acknowledgedCount,
                                    ledger.sentCount(),
                                    ledger.sentCount() / offeredSeconds,
                                    mix.rate(),
                                    mix.devices(),
                                    mix.gateways())));
            context.results()
                    .add(Metric.measured(
                            BenchMetrics.MQTT_KAFKA_RATE,
                            kafkaRate,
                            String.format(
                                    Locale.ROOT,
                                    "records written to %s while the mix was offered (%.1f s), per second; the rest"
                                            + " was in Kafka %.1f s after the last publish",
                                    Topics.RAW_POSITIONS,
                                    offeredSeconds,
                                    seconds(run.end(), inKafka))));
            context.console()
                    .progress(
                            "  offered %,.0f msg/s, acknowledged %,.0f msg/s, into Kafka %,.0f msg/s; checking every"
                                    + " acknowledged message in Kafka",
                            ledger.sentCount() / offeredSeconds, publishRate, kafkaRate);

            Reconciliation reconciliation = ledger.reconcile(keysInKafka(startOffsets, vehicles));
            // Kafka's count can reach the acknowledged one early when it holds copies: look again before calling
            // anything lost.
            Instant lateDeadline = Instant.now().plus(LATE_WAIT);
            while (reconciliation.lost() > 0 && Instant.now().isBefore(lateDeadline)) {
                context.console()
                        .progress("  %,d acknowledged messages not in Kafka yet; looking again", reconciliation.lost());
                TimeUnit.SECONDS.sleep(10);
                reconciliation = ledger.reconcile(keysInKafka(startOffsets, vehicles));
            }
            String check = String.format(
                    Locale.ROOT,
                    "each acknowledged (vehicle, event time) looked up among the %s records written since the phase"
                            + " started (%,d found, %,d records that are no acknowledged message)",
                    Topics.RAW_POSITIONS,
                    reconciliation.found(),
                    reconciliation.unknown());
            context.results()
                    .add(Metric.measured(BenchMetrics.MQTT_ACKNOWLEDGED, reconciliation.acknowledged(), check));
            context.results().add(Metric.measured(BenchMetrics.MQTT_LOST, reconciliation.lost(), check));
            context.results().add(Metric.measured(BenchMetrics.MQTT_DUPLICATES, reconciliation.duplicates(), check));
            addCpu(
                    BenchMetrics.MQTT_BROKER_CPU,
                    "MQTT broker",
                    broker,
                    brokerCpuBefore,
                    brokerCpuAfter,
                    acknowledgedCount);
            addCpu(
                    BenchMetrics.MQTT_CONNECT_CPU,
                    "Connect worker",
                    connect,
                    connectCpuBefore,
                    connectCpuAfter,
                    acknowledgedCount);
            context.results()
                    .note(String.format(
                            Locale.ROOT,
                            "MQTT mix: offered %,.0f msg/s (asked %,.0f) for %.0f s from %,d devices and %d gateways;"
                                    + " Kafka took %,.0f msg/s meanwhile; %,d acknowledged, %,d lost, %,d duplicated;"
                                    + " CPU per million messages: broker %s, Connect worker %s",
                            ledger.sentCount() / offeredSeconds,
                            mix.rate(),
                            offeredSeconds,
                            mix.devices(),
                            mix.gateways(),
                            kafkaRate,
                            reconciliation.acknowledged(),
                            reconciliation.lost(),
                            reconciliation.duplicates(),
                            cpuPerMillion(brokerCpuBefore, brokerCpuAfter, acknowledgedCount),
                            cpuPerMillion(connectCpuBefore, connectCpuAfter, acknowledgedCount)));
            context.console()
                    .progress(
                            "  %,d acknowledged: %,d lost, %,d duplicated; waiting for the Iceberg commits",
                            reconciliation.acknowledged(), reconciliation.lost(), reconciliation.duplicates());

            Snapshot committed = CommitWait.awaitTotal(
                    stack,
                    context.console(),
                    Tables.POSITIONS,
                    baseline + reconciliation.found(),
                    context.settings().phaseTimeout());
            double rate = reconciliation.found() / seconds(run.start(), committed.committedAt());
            context.results()
                    .add(Metric.measured(
                            BenchMetrics.MQTT_END_TO_END_RATE,
                            rate,
                            String.format(
                                    Locale.ROOT,
                                    "%,d positions: from the first publish to the Iceberg commit holding the last one"
                                            + " (%.1f s), through HiveMQ, the Connect source, Kafka and the pipeline; a"
                                            + " warm-up of %,d went through first and is not counted",
                                    reconciliation.found(),
                                    seconds(run.start(), committed.committedAt()),
                                    warm.ledger().acknowledgedCount())));
            context.console().progress("  end to end %,.0f msg/s", rate);
        }
    }

    private void addCpu(
            MetricDefinition definition,
            String component,
            Optional<ProcessHandle> process,
            Optional<Duration> before,
            Optional<Duration> after,
            long messages) {
        if (before.isEmpty() || after.isEmpty() || messages == 0) {
            context.results()
                    .add(Metric.notMeasured(
                            definition,
                            "no CPU time of the " + component + " process (not a process of this stack, or it"
                                    + " restarted)"));
            return;
        }
        double cpuSeconds = after.get().minus(before.get()).toMillis() / 1000.0;
        context.results()
                .add(Metric.measured(
                        definition,
                        cpuSeconds / messages * 1_000_000,
                        String.format(
                                Locale.ROOT,
                                "%.1f CPU-s of process %d (/proc/<pid>/stat, user + system) from the first publish until"
                                        + " every acknowledged message was in Kafka, for %,d messages",
                                cpuSeconds,
                                process.orElseThrow().pid(),
                                messages)));
    }

    private static String cpuPerMillion(Optional<Duration> before, Optional<Duration> after, long messages) {
        if (before.isEmpty() || after.isEmpty() || messages == 0) {
            return "not measured";
        }
        return String.format(
                Locale.ROOT, "%.0f CPU-s", after.get().minus(before.get()).toMillis() / 1000.0 / messages * 1_000_000);
    }

    /** Waits until Kafka holds as many records since {@code start} as the broker acknowledged; returns when. */
    private Instant awaitKafka(ConsumerLag kafka, Map<TopicPartition, Long> start, long expected)
            throws InterruptedException, TimeoutException {
        Duration timeout = context.settings().phaseTimeout();
        Instant deadline = Instant.now().plus(timeout);
        Instant nextReport = Instant.now().plusSeconds(5);
        while (true) {
            long written = total(kafka.endOffsets(Topics.RAW_POSITIONS)) - total(start);
            if (written >= expected) {
                return Instant.now();
            }
            if (Instant.now().isAfter(nextReport)) {
                context.console().progress("  %s holds %,d of %,d messages", Topics.RAW_POSITIONS, written, expected);
                nextReport = Instant.now().plusSeconds(5);
            }
            if (Instant.now().isAfter(deadline)) {
                throw new TimeoutException(String.format(
                        Locale.ROOT,
                        "%s held %,d of %,d acknowledged messages after %d s",
                        Topics.RAW_POSITIONS,
                        written,
                        expected,
                        timeout.toSeconds()));
            }
            TimeUnit.MILLISECONDS.sleep(KAFKA_POLL_INTERVAL.toMillis());
        }
    }

    /**
     * The ledger keys of the raw records written since {@code start}: decoded payloads of the fleet's vehicles, -1 for
     * anything else.
     */
    private long[] keysInKafka(Map<TopicPartition, Long> start, List<Vehicle> vehicles) {
        Map<String, Integer> vehicleIndex = new HashMap<>();
        for (int index = 0; index < vehicles.size(); index++) {
            vehicleIndex.put(vehicles.get(index).vehicleId(), index);
        }
        PositionCodec codec = PositionCodec.bundled();
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, context.stack().kafkaBootstrapServers());
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        long[] keys = new long[1024];
        int size = 0;
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(start.keySet());
            start.forEach(consumer::seek);
            Map<TopicPartition, Long> end = consumer.endOffsets(start.keySet());
            while (start.keySet().stream().anyMatch(partition -> consumer.position(partition) < end.get(partition))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    if (record.offset() >= end.get(new TopicPartition(record.topic(), record.partition()))) {
                        continue;
                    }
                    if (size == keys.length) {
                        keys = Arrays.copyOf(keys, size * 2);
                    }
                    keys[size++] = key(codec::decode, vehicleIndex, record.value());
                }
            }
        }
        return Arrays.copyOf(keys, size);
    }

    /** The ledger key of a raw payload; -1 when it does not decode (see {@link RawPayloads}) or is of another fleet. */
    static long key(Function<byte[], DecodeResult> decoder, Map<String, Integer> vehicleIndex, byte[] payload) {
        Optional<Position> position = RawPayloads.position(decoder, payload);
        if (position.isPresent()) {
            Integer index = vehicleIndex.get(position.get().vehicleId());
            if (index != null) {
                return Ledger.key(index, position.get().eventTime().toEpochMilli());
            }
        }
        return -1;
    }

    private static Optional<ProcessHandle> process(BenchStack stack, String name) {
        Component component = stack.stack().component(name);
        return component instanceof ProcessComponent process ? process.processHandle() : Optional.empty();
    }

    private static Optional<Duration> cpu(Optional<ProcessHandle> process) {
        return process.flatMap(handle -> handle.info().totalCpuDuration());
    }

    private static long total(Map<TopicPartition, Long> offsets) {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }

    private static double seconds(Instant from, Instant to) {
        return Math.max(1, Duration.between(from, to).toMillis()) / 1000.0;
    }

    private static void awaitAcknowledgements(MqttPublishers publishers) throws InterruptedException, TimeoutException {
        if (!publishers.awaitAcknowledgements(ACKNOWLEDGE_TIMEOUT)) {
            throw new TimeoutException(
                    "The broker did not acknowledge every message within " + ACKNOWLEDGE_TIMEOUT.toSeconds() + " s");
        }
    }
}
