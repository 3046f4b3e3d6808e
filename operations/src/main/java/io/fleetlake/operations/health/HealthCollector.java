package io.fleetlake.operations.health;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.MaintenanceMetricNames;
import io.fleetlake.model.Tables;
import io.fleetlake.model.Topics;
import io.fleetlake.operations.health.HealthSnapshot.IngestActivity;
import io.fleetlake.operations.health.HealthSnapshot.MaintenanceRun;
import io.fleetlake.operations.inspect.CatalogInspector;
import io.fleetlake.operations.inspect.CatalogInspector.TableCommits;
import io.fleetlake.operations.inspect.ConnectInspector;
import io.fleetlake.operations.inspect.ConsumerLagInspector;
import io.fleetlake.operations.inspect.ConsumerLagInspector.PartitionLag;
import io.fleetlake.operations.inspect.DeadLetterInspector;
import io.fleetlake.operations.inspect.FlinkInspector;
import io.fleetlake.operations.inspect.InspectionException;
import io.fleetlake.operations.inspect.KafkaInspector;
import io.fleetlake.operations.inspect.PrometheusText;
import io.fleetlake.operations.inspect.PrometheusText.Sample;
import io.fleetlake.operations.inspect.RedisInspector;
import io.fleetlake.operations.status.StackStatusFile.StackStatus;
import io.fleetlake.operations.verify.IngestHopCheck;
import io.fleetlake.operations.verify.IngestHopReconciliation;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Reads a {@link HealthSnapshot} from the stack's servers. Keeps its Kafka clients open between readings (the
 * exporter reads every few seconds) until {@link #close()}.
 */
public final class HealthCollector implements AutoCloseable {
    /** The tables whose commits are reported; fleet.positions is committed at every checkpoint that saw data. */
    public static final List<String> TABLES =
            List.of(Tables.POSITIONS, Tables.VEHICLE_MINUTES, Tables.REJECTED_POSITIONS);

    /** The MQTT broker's counter of received publishes (JMX exporter rules in deploy/prometheus/jmx). */
    public static final String MQTT_PUBLISHES_RECEIVED = "fleet_mqtt_publishes_received_total";

    private static final String MAINTENANCE_SUCCESS = "fleet_maintenance_last_run_success";
    private static final String MAINTENANCE_TIMESTAMP = "fleet_maintenance_last_run_timestamp_seconds";

    private final HealthSources sources;
    private final HealthThresholds thresholds;
    private final Clock clock;
    private final ConsumerLagInspector kafka;
    private final DeadLetterInspector deadLetters;
    private final KafkaInspector topics;
    private final CatalogInspector catalog;
    private final ConnectInspector connect;
    private final RedisInspector redis;
    private final FlinkInspector flink;
    private final ExecutorService probes = Executors.newFixedThreadPool(4, runnable -> {
        Thread thread = new Thread(runnable, "health-probe");
        thread.setDaemon(true);
        return thread;
    });

    public HealthCollector(HealthSources sources, HealthThresholds thresholds, Clock clock) {
        this.sources = requireNonNull(sources, "sources is null");
        this.thresholds = requireNonNull(thresholds, "thresholds is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.kafka = new ConsumerLagInspector(sources.kafkaBootstrapServers(), sources.kafkaClientSecurity());
        this.deadLetters = new DeadLetterInspector(sources.kafkaBootstrapServers(), sources.kafkaClientSecurity());
        this.topics = new KafkaInspector(sources.kafkaBootstrapServers(), sources.kafkaClientSecurity());
        this.catalog = new CatalogInspector(sources.catalogUri(), sources.catalogCredential());
        this.connect = new ConnectInspector(sources.connectUri(), sources.connectCredentials());
        this.redis = new RedisInspector(URI.create(sources.redisUri()));
        this.flink = new FlinkInspector(sources.flinkRest());
    }

    public HealthThresholds thresholds() {
        return thresholds;
    }

    /**
     * One reading of every source.
     *
     * @param watchIngest whether to watch the MQTT broker and the raw topic for {@link
     *     HealthThresholds#sampleWindow()} (the reading takes at least that long)
     * @param numRestartsAttempts how long to wait, in seconds, for Flink's REST endpoint to serve {@code numRestarts}
     * @param supervisor the launcher's statuses, for the embedded stack
     */
    public HealthSnapshot collect(boolean watchIngest, int numRestartsAttempts, Optional<StackStatus> supervisor) {
        Instant started = clock.instant();
        boolean watching = watchIngest && !thresholds.sampleWindow().isZero();
        Optional<Reading<Counts>> before = watching ? Optional.of(Reading.read(this::ingestCounts)) : Optional.empty();
        IngestHopCheck hop = new IngestHopCheck(
                sources.kafkaBootstrapServers(), sources.kafkaClientSecurity(), sources.mqttMetricsUri());
        Optional<Reading<IngestHopCheck.Start>> hopStart =
                watching ? Optional.of(Reading.read(hop::start)) : Optional.empty();
        Map<String, CompletableFuture<Boolean>> probed = new LinkedHashMap<>();
        sources.probes()
                .forEach((name, probe) -> probed.put(name, CompletableFuture.supplyAsync(probe::getAsBoolean, probes)));

        Map<String, Reading<List<PartitionLag>>> lag = new LinkedHashMap<>();
        for (String group : sources.consumerGroups()) {
            lag.put(group, Reading.read(() -> kafka.lag(group, clock.instant())));
        }
        Map<String, Reading<TableCommits>> commits = new LinkedHashMap<>();
        for (String table : TABLES) {
            commits.put(Tables.qualified(table), Reading.read(() -> catalog.commits(table)));
        }
        Instant windowStart = started.minus(thresholds.deadLetterWindow());
        var deadLetterCounts = Reading.read(() -> deadLetters.since(windowStart));
        Reading<Long> rawAppended = Reading.read(() -> kafka.appendedSince(Topics.RAW_POSITIONS, windowStart));
        Reading<Optional<Instant>> newestRaw = Reading.read(() -> newestRecordTime(Topics.RAW_POSITIONS));
        var freshness = Reading.read(() -> redis.freshness(clock.instant()));
        var connector = Reading.read(() -> connect.state(sources.connectorName()));
        var ingestHealth = Reading.read(connect::ingestHealth);
        var pipeline = flink.pipelineJob(numRestartsAttempts);
        Optional<Reading<List<MaintenanceRun>>> maintenance =
                sources.maintenanceMetricsUri().map(uri -> Reading.read(() -> maintenanceRuns(uri)));

        Optional<Reading<IngestActivity>> ingest = before.map(first -> {
            awaitSampleEnd(started.plus(thresholds.sampleWindow()));
            Reading<Counts> second = Reading.read(this::ingestCounts);
            if (first.error().isPresent()) {
                return Reading.failed(first.error().get());
            }
            if (second.error().isPresent()) {
                return Reading.failed(second.error().get());
            }
            Counts from = first.value().get();
            Counts to = second.value().get();
            return Reading.of(new IngestActivity(
                    Duration.between(from.at(), to.at()),
                    to.publishesReceived() - from.publishesReceived(),
                    to.rawEndOffsets() - from.rawEndOffsets()));
        });

        // After the sample window, which the ingest activity above waited for.
        Optional<Reading<IngestHopReconciliation>> ingestHop =
                hopStart.map(start -> start.value().isPresent()
                        ? Reading.read(() -> hop.finish(start.value().get()))
                        : Reading.failed(start.error().get()));

        Map<String, Boolean> components = new LinkedHashMap<>();
        probed.forEach((name, future) -> components.put(name, future.join()));
        return new HealthSnapshot(
                started,
                components,
                lag,
                commits,
                deadLetterCounts,
                rawAppended,
                newestRaw,
                freshness,
                connector,
                ingestHealth,
                ingest,
                ingestHop,
                pipeline,
                maintenance,
                supervisor);
    }

    private Optional<Instant> newestRecordTime(String topic) {
        try {
            return topics.newestRecordTime(topic);
        } catch (RuntimeException e) {
            throw new InspectionException("Cannot read the newest record of " + topic + ": " + e.getMessage(), e);
        }
    }

    /** The MQTT broker's received publishes and the raw topic's end offsets now; needs the broker's metrics. */
    private Counts ingestCounts() {
        URI uri = sources.mqttMetricsUri()
                .orElseThrow(() -> new InspectionException("the MQTT broker's metrics endpoint is not configured"));
        double received = PrometheusText.scrape(uri).stream()
                .filter(sample -> sample.name().equals(MQTT_PUBLISHES_RECEIVED))
                .mapToDouble(Sample::value)
                .sum();
        return new Counts(clock.instant(), (long) received, kafka.endOffsets(Topics.RAW_POSITIONS));
    }

    private void awaitSampleEnd(Instant end) {
        long millis = Duration.between(clock.instant(), end).toMillis();
        if (millis <= 0) {
            return;
        }
        try {
            // A deliberate observation window, not a wait for a condition: the counts are compared across it.
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The last run of each table, from {@code fleet_maintenance_last_run_*} of the maintenance service. */
    static List<MaintenanceRun> maintenanceRuns(List<Sample> samples) {
        Map<String, Double> success = new HashMap<>();
        Map<String, Double> endedAt = new LinkedHashMap<>();
        for (Sample sample : samples) {
            Optional<String> table = sample.label(MaintenanceMetricNames.TABLE_TAG);
            if (table.isEmpty()) {
                continue;
            }
            if (sample.name().equals(MAINTENANCE_SUCCESS)) {
                success.put(table.get(), sample.value());
            } else if (sample.name().equals(MAINTENANCE_TIMESTAMP)) {
                endedAt.put(table.get(), sample.value());
            }
        }
        List<MaintenanceRun> runs = new ArrayList<>();
        endedAt.forEach((table, seconds) -> runs.add(new MaintenanceRun(
                table, Instant.ofEpochMilli((long) (seconds * 1000)), success.getOrDefault(table, 0.0) >= 1.0)));
        return runs;
    }

    private static List<MaintenanceRun> maintenanceRuns(URI uri) {
        return maintenanceRuns(PrometheusText.scrape(uri));
    }

    @Override
    public void close() {
        probes.shutdownNow();
        kafka.close();
    }

    private record Counts(Instant at, long publishesReceived, long rawEndOffsets) {}
}
