package io.fleetlake.operations.exporter;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.FleetMetricNames;
import io.fleetlake.operations.health.HealthCollector;
import io.fleetlake.operations.health.HealthEvaluator;
import io.fleetlake.operations.health.HealthReport;
import io.fleetlake.operations.health.HealthReportWriter;
import io.fleetlake.operations.health.HealthSnapshot;
import io.fleetlake.operations.inspect.CatalogInspector.TableCommits;
import io.fleetlake.operations.inspect.ConnectInspector;
import io.fleetlake.operations.inspect.ConnectInspector.ConnectorState;
import io.fleetlake.operations.inspect.ConnectInspector.TaskState;
import io.fleetlake.operations.inspect.ConsumerLagInspector.PartitionLag;
import io.fleetlake.operations.inspect.FlinkInspector.PipelineJob;
import io.fleetlake.operations.inspect.RedisInspector.Freshness;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * fleet-exporter: reads the stack's servers every {@link ExporterConfig#interval()} (Kafka offsets, the catalog's
 * snapshots, the dead-letter topic, Redis, the Connect and Flink REST APIs, component probes) and serves what it read
 * as Prometheus metrics on {@code /metrics} ({@link FleetMetricNames}), and the health report {@code fleet status}
 * prints as JSON on {@code /health}. Scrapes never wait for the servers: they get the latest reading.
 */
public final class FleetExporter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FleetExporter.class);
    /** Connector states reported as one series each (1 for the current one), so that rules can match any of them. */
    private static final List<String> CONNECTOR_STATES = List.of(
            "RUNNING", "PAUSED", "STOPPED", "FAILED", "UNASSIGNED", "RESTARTING", ConnectInspector.NOT_REGISTERED);

    private final ExporterConfig config;
    private final Clock clock;
    private final AtomicReference<Reading> latest = new AtomicReference<>();
    private HealthCollector collector;
    private DeadLetterCounter deadLetters;
    private ScheduledExecutorService refresher;
    private HTTPServer server;

    public FleetExporter(ExporterConfig config, Clock clock) {
        this.config = requireNonNull(config, "config is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** Takes a first reading, then listens; readings go on in the background. */
    public synchronized FleetExporter start() throws IOException {
        if (server != null) {
            throw new IllegalStateException("fleet-exporter is already started");
        }
        collector = new HealthCollector(config.sources(), config.thresholds(), clock);
        deadLetters = new DeadLetterCounter(
                config.sources().kafkaBootstrapServers(), config.sources().kafkaClientSecurity());
        refresh();
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register((MultiCollector) this::collect);
        server = HTTPServer.builder()
                .hostname(config.host())
                .port(config.port())
                .registry(registry)
                .defaultHandler(exchange -> {
                    try (exchange) {
                        boolean health = exchange.getRequestURI().getPath().equals("/health");
                        byte[] body = (health
                                        ? healthJson()
                                        : "fleet-exporter: /metrics (Prometheus), /health (JSON health report)\n")
                                .getBytes(StandardCharsets.UTF_8);
                        exchange.getResponseHeaders()
                                .set("Content-Type", health ? "application/json" : "text/plain; charset=utf-8");
                        exchange.sendResponseHeaders(health ? 200 : 404, body.length);
                        try (OutputStream out = exchange.getResponseBody()) {
                            out.write(body);
                        }
                    }
                })
                .buildAndStart();
        refresher = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "fleet-exporter-refresh");
            thread.setDaemon(true);
            return thread;
        });
        long millis = config.interval().toMillis();
        refresher.scheduleWithFixedDelay(this::refreshLogged, millis, millis, TimeUnit.MILLISECONDS);
        return this;
    }

    /** The bound port; differs from the configured one when that was 0. */
    public synchronized int port() {
        if (server == null) {
            throw new IllegalStateException("fleet-exporter is not started");
        }
        return server.getPort();
    }

    private void refreshLogged() {
        try {
            refresh();
        } catch (RuntimeException e) {
            // The next reading tries again; the metrics keep the last reading meanwhile.
            LOG.error("Reading the stack's servers failed: {}", e.getMessage(), e);
        }
    }

    private void refresh() {
        HealthSnapshot snapshot = collector.collect(false, 1, Optional.empty());
        Optional<String> deadLetterError;
        try {
            deadLetters.update();
            deadLetterError = Optional.empty();
        } catch (RuntimeException e) {
            deadLetterError = Optional.of(e.getMessage());
            LOG.warn("Cannot count dead letters: {}", e.getMessage());
        }
        HealthReport report = new HealthEvaluator(config.thresholds()).evaluate(snapshot);
        latest.set(new Reading(snapshot, report, deadLetters.counts(), deadLetterError.isEmpty()));
        LOG.debug("Read the stack: {}", report.overall());
    }

    private String healthJson() {
        Reading reading = latest.get();
        return HealthReportWriter.json(reading.report(), reading.snapshot());
    }

    /** The latest reading as metrics. */
    MetricSnapshots collect() {
        Reading reading = latest.get();
        return metrics(reading.snapshot(), reading.report(), reading.deadLetters(), reading.deadLettersRead());
    }

    /** The metrics of a reading; a pure function of its arguments. */
    static MetricSnapshots metrics(
            HealthSnapshot snapshot, HealthReport report, Map<String, Long> deadLetters, boolean deadLettersRead) {
        MetricFamilies families = new MetricFamilies();
        snapshot.components()
                .forEach((name, up) -> families.gauge(
                        FleetMetricNames.COMPONENT_UP,
                        "1 when the component's health probe passes",
                        up ? 1 : 0,
                        "component",
                        name));
        snapshot.lag().forEach((group, lag) -> lag.value().ifPresent(partitions -> {
            for (PartitionLag partition : partitions) {
                String[] labels = {
                    "group", group, "topic", partition.topic(), "partition", Integer.toString(partition.partition())
                };
                families.gauge(
                        FleetMetricNames.CONSUMER_LAG_RECORDS,
                        "Records between the group's committed offset and the partition's last stable offset",
                        partition.records(),
                        labels);
                families.gauge(
                        FleetMetricNames.CONSUMER_LAG_SECONDS,
                        "Age of the oldest record the group has not committed past (0 when none waits)",
                        partition.age().toMillis() / 1000.0,
                        labels);
            }
        }));
        snapshot.commits().forEach((table, commits) -> commits.value().ifPresent((TableCommits value) -> {
            value.lastDataCommit()
                    .ifPresent(at -> families.gauge(
                            FleetMetricNames.ICEBERG_LAST_COMMIT_TIMESTAMP,
                            "When the table's newest snapshot that added or removed data was committed (epoch seconds)",
                            at.toEpochMilli() / 1000.0,
                            "table",
                            table));
            families.gauge(
                    FleetMetricNames.ICEBERG_SNAPSHOTS,
                    "Snapshots the table's metadata keeps",
                    value.snapshots(),
                    "table",
                    table);
        }));
        if (deadLettersRead) {
            deadLetters.forEach((reason, count) -> families.counter(
                    FleetMetricNames.DLQ_RECORDS,
                    "Dead letters appended to gps.dlq.positions since the exporter started, by dlq.reason",
                    count,
                    "reason",
                    reason));
        }
        snapshot.redis().value().ifPresent(freshness -> redis(families, freshness));
        connector(families, snapshot.connector().value());
        snapshot.ingestHealth()
                .value()
                .ifPresent(worker -> families.gauge(
                        FleetMetricNames.INGEST_HEALTHY,
                        "1 when the Connect worker's /ingest/health passes: tasks run here, MQTT connected, no message"
                                + " waiting too long for Kafka",
                        worker.healthy() ? 1 : 0));
        pipeline(families, snapshot.pipeline());
        for (HealthReport.Status status : HealthReport.Status.values()) {
            families.gauge(
                    FleetMetricNames.HEALTH_CHECKS,
                    "Checks of the health report (fleet status) by outcome",
                    report.checks().stream()
                            .filter(check -> check.status() == status)
                            .count(),
                    "status",
                    status.name());
        }
        families.gauge(
                FleetMetricNames.EXPORTER_LAST_READING_TIMESTAMP,
                "When the exporter last read the stack's servers (epoch seconds)",
                snapshot.takenAt().toEpochMilli() / 1000.0);
        return families.build();
    }

    private static void redis(MetricFamilies families, Freshness freshness) {
        families.gauge(
                FleetMetricNames.REDIS_VEHICLES, "Vehicles with a current position in Redis", freshness.vehicles());
        freshness
                .newest()
                .ifPresent(age -> families.gauge(
                        FleetMetricNames.REDIS_NEWEST_AGE,
                        "Age of the newest position in Redis (fleet:last_seen, event time)",
                        seconds(age)));
        freshness
                .median()
                .ifPresent(age -> families.gauge(
                        FleetMetricNames.REDIS_MEDIAN_AGE,
                        "Age of the median vehicle's newest position in Redis",
                        seconds(age)));
        freshness
                .oldest()
                .ifPresent(age -> families.gauge(
                        FleetMetricNames.REDIS_OLDEST_AGE,
                        "Age of the newest position of the vehicle seen longest ago in Redis",
                        seconds(age)));
        freshness.memory().ifPresent(memory -> families.gauge(
                        FleetMetricNames.REDIS_MEMORY_USED, "Memory Redis uses (used_memory)", memory.usedBytes())
                .gauge(
                        FleetMetricNames.REDIS_MEMORY_MAX,
                        "Redis' memory limit (maxmemory); 0 when it has none",
                        memory.maxBytes())
                .counter(
                        FleetMetricNames.REDIS_REFUSED_WRITES,
                        "Commands Redis refused with OOM since it started: memory is full and, with noeviction, no"
                                + " vehicle's state is evicted to make room",
                        memory.refusedWrites()));
    }

    private static void connector(MetricFamilies families, Optional<ConnectorState> state) {
        if (state.isEmpty()) {
            return;
        }
        ConnectorState connector = state.get();
        Set<String> states = new LinkedHashSet<>(CONNECTOR_STATES);
        states.add(connector.state());
        for (String candidate : states) {
            families.gauge(
                    FleetMetricNames.CONNECT_CONNECTOR_STATE,
                    "1 for the connector's current state (Connect REST API), 0 for the others",
                    candidate.equals(connector.state()) ? 1 : 0,
                    "connector",
                    connector.connector(),
                    "state",
                    candidate);
        }
        for (TaskState task : connector.tasks()) {
            families.gauge(
                    FleetMetricNames.CONNECT_TASK_STATE,
                    "1 for the task's current state (Connect REST API)",
                    1,
                    "connector",
                    connector.connector(),
                    "task",
                    Integer.toString(task.id()),
                    "state",
                    task.state());
        }
    }

    private static void pipeline(MetricFamilies families, PipelineJob job) {
        families.gauge(
                FleetMetricNames.PIPELINE_JOB_RUNNING,
                "1 while the fleet-pipeline job is RUNNING",
                job.running() ? 1 : 0);
        job.checkpointInterval()
                .ifPresent(interval -> families.gauge(
                        FleetMetricNames.PIPELINE_CHECKPOINT_INTERVAL,
                        "The running job's checkpoint interval",
                        seconds(interval)));
        job.lastCheckpoint()
                .ifPresent(checkpoint -> families.gauge(
                        FleetMetricNames.PIPELINE_LAST_CHECKPOINT_TIMESTAMP,
                        "When the newest completed checkpoint was acknowledged (epoch seconds)",
                        checkpoint.completedAt().toEpochMilli() / 1000.0));
        job.lastRestart()
                .ifPresent(at -> families.gauge(
                        FleetMetricNames.PIPELINE_LAST_RESTART_TIMESTAMP,
                        "When the job last entered RESTARTING (epoch seconds)",
                        at.toEpochMilli() / 1000.0));
    }

    private static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }

    @Override
    public synchronized void close() {
        if (refresher != null) {
            refresher.shutdownNow();
        }
        if (server != null) {
            server.close();
            server = null;
        }
        if (deadLetters != null) {
            deadLetters.close();
        }
        if (collector != null) {
            collector.close();
        }
    }

    private record Reading(
            HealthSnapshot snapshot, HealthReport report, Map<String, Long> deadLetters, boolean deadLettersRead) {}
}
