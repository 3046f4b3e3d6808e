package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.connect.client.ConnectRestClient;
import io.fleetlake.model.MqttTopics;
import io.fleetlake.model.Position;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.model.trino.TrinoConnectionFactory;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.operations.inspect.PrometheusText;
import io.fleetlake.operations.inspect.PrometheusText.Sample;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.StackPort;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.it.SharedStack.RunningStack;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Operations on the real stack: every component's metrics endpoint serves the series deploy/prometheus/README.md names,
 * the embedded Prometheus scrapes them, and {@code fleet status} calls a paused connector and a stopped pipeline
 * unhealthy while positions arrive, giving the reason.
 */
@ExtendWith(SharedStack.class)
@ResourceLock(SharedStack.LOCK)
class OperationsIT {
    private static final String PREFIX = "OPS-";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void everyMetricsEndpointServesItsSeries(RunningStack running) throws Exception {
        StackSettings settings = running.settings();
        try (TestPublisher publisher = TestPublisher.connect(settings, "operations-metrics")) {
            publisher.publishAll(positions(PREFIX + "M", 5, 10, Instant.now().minus(10, ChronoUnit.MINUTES)));
            publisher.publishRaw(
                    MqttTopics.positionTopic(PREFIX + "MBAD"), "not a position".getBytes(StandardCharsets.UTF_8));
            publisher.awaitAcknowledgements();
        }

        // fleet-exporter: lag of the pipeline's group, commits, dead letters by reason, Redis, connector, job, probes.
        await().atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofSeconds(3))
                .untilAsserted(() -> {
                    List<Sample> exporter = scrape(settings, StackPort.EXPORTER);
                    assertThat(names(exporter))
                            .contains(
                                    "fleet_kafka_consumer_lag_records",
                                    "fleet_kafka_consumer_lag_seconds",
                                    "fleet_iceberg_last_commit_timestamp_seconds",
                                    "fleet_redis_last_seen_oldest_age_seconds",
                                    "fleet_redis_last_seen_median_age_seconds",
                                    "fleet_pipeline_last_checkpoint_timestamp_seconds",
                                    "fleet_pipeline_checkpoint_interval_seconds");
                    assertThat(value(exporter, "fleet_dlq_records_total", Map.of("reason", "MALFORMED_PAYLOAD")))
                            .isGreaterThanOrEqualTo(1);
                    assertThat(value(
                                    exporter,
                                    "fleet_connect_connector_state",
                                    Map.of("connector", FleetStack.CONNECTOR_NAME, "state", "RUNNING")))
                            .isEqualTo(1);
                    assertThat(value(exporter, "fleet_pipeline_job_running", Map.of()))
                            .isEqualTo(1);
                    assertThat(value(exporter, "fleet_component_up", Map.of("component", FleetStack.S3)))
                            .isEqualTo(1);
                    assertThat(labelValues(exporter, "fleet_kafka_consumer_lag_seconds", "group"))
                            .contains("fleet-pipeline");
                    assertThat(labelValues(exporter, "fleet_iceberg_last_commit_timestamp_seconds", "table"))
                            .contains("fleet.positions");
                });

        List<Sample> kafka = scrape(settings, StackPort.KAFKA_METRICS);
        assertThat(value(kafka, "fleet_kafka_topic_messages_in_total", Map.of("topic", "gps.raw.positions")))
                .isGreaterThan(0);
        assertThat(names(kafka)).contains("fleet_kafka_log_end_offset", "fleet_kafka_under_replicated_partitions");

        List<Sample> connect = scrape(settings, StackPort.CONNECT_METRICS);
        assertThat(value(
                        connect,
                        "fleet_connect_connector_tasks",
                        Map.of("connector", FleetStack.CONNECTOR_NAME, "state", "running")))
                .isEqualTo(1);
        assertThat(sum(connect, "fleet_connect_source_records_written_total")).isGreaterThanOrEqualTo(51);
        // The source task's own progress metrics (ingest-connect's plugin metrics).
        assertThat(sum(connect, "fleet_ingest_mqtt_messages_received_total")).isGreaterThanOrEqualTo(51);
        assertThat(sum(connect, "fleet_ingest_records_written_total")).isGreaterThanOrEqualTo(50);
        assertThat(value(connect, "fleet_ingest_mqtt_connected", Map.of("connector", FleetStack.CONNECTOR_NAME)))
                .isEqualTo(1);
        assertThat(names(connect)).contains("fleet_ingest_messages_pending", "fleet_ingest_oldest_pending_age_seconds");

        List<Sample> mqtt = scrape(settings, StackPort.MQTT_METRICS);
        assertThat(sum(mqtt, "fleet_mqtt_publishes_received_total")).isGreaterThanOrEqualTo(51);
        assertThat(names(mqtt)).contains("fleet_mqtt_publishes_sent_total", "fleet_mqtt_messages_dropped_total");

        List<Sample> catalog = scrape(settings, StackPort.CATALOG_METRICS);
        assertThat(labelValues(catalog, "fleet_catalog_requests_total", "endpoint"))
                .contains("GET /v1/config", "POST /v1/namespaces/{namespace}/tables/{table}");
        assertThat(names(catalog)).contains("fleet_catalog_request_duration_seconds_bucket");

        // The dashboard's health panel reads fleet-exporter's report; that request is counted by route.
        String session = DashboardSession.signIn(HTTP, settings);
        HttpResponse<String> healthResponse = HTTP.send(
                HttpRequest.newBuilder(URI.create(settings.dashboardUri() + "/api/health"))
                        .header("Cookie", session)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(healthResponse.statusCode()).isEqualTo(200);
        JsonNode health = JSON.readTree(healthResponse.body());
        assertThat(health.path("checks").size()).isGreaterThan(5);
        List<Sample> dashboard = scrape(settings, StackPort.DASHBOARD_METRICS);
        assertThat(value(dashboard, "fleet_dashboard_requests_total", Map.of("route", "/api/health", "status", "200")))
                .isGreaterThanOrEqualTo(1);

        await().atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(names(scrape(settings, StackPort.MAINTENANCE)))
                        .contains("fleet_maintenance_runs_total", "fleet_maintenance_last_run_success"));

        List<Sample> pipeline = scrape(settings, StackPort.PIPELINE_METRICS);
        assertThat(sum(pipeline, "fleet_pipeline_records_read_total")).isGreaterThanOrEqualTo(51);
        assertThat(labelValues(pipeline, "fleet_pipeline_records_rejected_total", "reason"))
                .contains("MALFORMED_PAYLOAD");
        assertThat(names(pipeline))
                .contains(
                        "fleet_pipeline_records_accepted_total",
                        "fleet_pipeline_job_restarts_total",
                        "fleet_pipeline_checkpoints_total",
                        "fleet_pipeline_last_checkpoint_duration_seconds",
                        "fleet_pipeline_task_backpressured_ratio");

        // Trino's own OpenMetrics endpoint: HTTPS, as fleet-monitor (who may read system information).
        TrinoConnectionFactory monitor = settings.trino(TrinoUser.MONITOR);
        HttpResponse<String> trino = TrinoHttps.client(settings.trinoSecrets().caCertificate())
                .send(
                        HttpRequest.newBuilder(monitor.serverUri().resolve("/metrics"))
                                .header(
                                        "Authorization",
                                        "Basic "
                                                + Base64.getEncoder()
                                                        .encodeToString((monitor.user() + ":" + monitor.password())
                                                                .getBytes(StandardCharsets.UTF_8)))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(trino.statusCode()).isEqualTo(200);
        assertThat(trino.body()).contains("trino_execution_name_QueryManager_RunningQueries");
    }

    @Test
    void theEmbeddedPrometheusScrapesEveryComponentAndLoadsTheRules(RunningStack running) throws Exception {
        if (running.stack().components().stream().noneMatch(c -> c.name().equals(FleetStack.PROMETHEUS))) {
            fail("The stack runs no Prometheus: install Debian's prometheus package (apt-get install -y prometheus;"
                    + " ./fleet test installs it), which fleet up starts from /usr/bin/prometheus");
        }
        String prometheus =
                "http://" + running.settings().host() + ":" + running.settings().port(StackPort.PROMETHEUS);
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(5))
                .untilAsserted(() -> {
                    JsonNode targets = JSON.readTree(get(URI.create(prometheus + "/api/v1/targets")));
                    List<String> down = new ArrayList<>();
                    List<String> jobs = new ArrayList<>();
                    for (JsonNode target : targets.path("data").path("activeTargets")) {
                        jobs.add(target.path("labels").path("job").asText());
                        if (!target.path("health").asText().equals("up")) {
                            down.add(target.path("labels").path("job").asText() + ": "
                                    + target.path("lastError").asText());
                        }
                    }
                    assertThat(jobs)
                            .containsExactlyInAnyOrder(
                                    "prometheus",
                                    "kafka",
                                    "connect",
                                    "mqtt",
                                    "pipeline",
                                    "catalog",
                                    "dashboard",
                                    "maintenance",
                                    "exporter",
                                    "trino");
                    assertThat(down).isEmpty();
                });
        JsonNode rules = JSON.readTree(get(URI.create(prometheus + "/api/v1/rules")));
        List<String> alerts = new ArrayList<>();
        for (JsonNode group : rules.path("data").path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                assertThat(rule.path("health").asText())
                        .as("rule %s", rule.path("name"))
                        .isNotEqualTo("err");
                alerts.add(rule.path("name").asText());
            }
        }
        assertThat(alerts).contains("FleetConsumerLagHigh", "FleetIcebergCommitsStalled", "FleetConnectorNotRunning");
    }

    @Test
    void fleetStatusCallsAPausedConnectorUnhealthy(RunningStack running) throws Exception {
        ConnectRestClient admin = ConnectAccess.admin(running.settings());
        assertThat(check(status(running), "ingest", "connector").path("status").asText())
                .isEqualTo("OK");
        admin.pauseConnector(FleetStack.CONNECTOR_NAME);
        try {
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofSeconds(2))
                    .untilAsserted(() -> {
                        FleetCommand.Result result =
                                FleetCommand.run(running.settings(), "status", "--set", "health.sample-window=0s");
                        assertThat(result.exitCode()).as("%s", result).isEqualTo(1);
                        assertThat(result.out())
                                .contains("Unhealthy because:")
                                .contains("ingest / connector: mqtt-positions PAUSED");
                    });
        } finally {
            admin.resumeConnector(FleetStack.CONNECTOR_NAME);
        }
        await().atMost(Duration.ofMinutes(1))
                .pollInterval(Duration.ofSeconds(2))
                .untilAsserted(() -> assertThat(check(status(running), "ingest", "connector")
                                .path("status")
                                .asText())
                        .isEqualTo("OK"));
    }

    @Test
    void fleetStatusCallsAStoppedPipelineUnhealthyAsRecordsPileUp(RunningStack running) throws Exception {
        StackSettings settings = running.settings();
        // The group has committed offsets before the pipeline stops, so that its lag can be measured.
        try (TestPublisher publisher = TestPublisher.connect(settings, "operations-lag-before")) {
            publisher.publishAll(positions(PREFIX + "L", 2, 5, Instant.now().minus(20, ChronoUnit.MINUTES)));
            publisher.awaitAcknowledgements();
        }
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> lagChecks(status(running)).size() > 0);

        running.stack().stop(FleetStack.PIPELINE);
        AtomicBoolean publishing = new AtomicBoolean(true);
        CompletableFuture<Void> devices;
        try (TestPublisher publisher = TestPublisher.connect(settings, "operations-lag")) {
            devices = CompletableFuture.runAsync(() -> publishUntilStopped(publisher, publishing));
            try {
                await().atMost(Duration.ofMinutes(2))
                        .pollInterval(Duration.ofSeconds(3))
                        .untilAsserted(() -> {
                            JsonNode report = status(running, "health.max-lag=5s");
                            assertThat(report.path("healthy").asBoolean()).isFalse();
                            assertThat(lagChecks(report))
                                    .as("lag checks of %s", report.path("problems"))
                                    .anySatisfy(check -> assertThat(
                                                    check.path("status").asText())
                                            .isEqualTo("FAIL"));
                            assertThat(report.path("problems").toString())
                                    .contains("lag / fleet-pipeline gps.raw.positions/")
                                    .contains("the oldest unconsumed record waited longer than 5.0 s")
                                    .contains("pipeline / job: not RUNNING");
                        });
            } finally {
                publishing.set(false);
                devices.get(1, TimeUnit.MINUTES);
            }
        } finally {
            running.stack().start(FleetStack.PIPELINE);
        }
        // Back up, the pipeline catches up: the lag falls under the default limit again.
        await().atMost(Duration.ofMinutes(4))
                .pollInterval(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(lagChecks(status(running)))
                        .allSatisfy(check ->
                                assertThat(check.path("status").asText()).isEqualTo("OK")));
    }

    private static void publishUntilStopped(TestPublisher publisher, AtomicBoolean publishing) {
        Instant start = Instant.now().minus(15, ChronoUnit.MINUTES);
        try {
            for (int fix = 0; publishing.get(); fix++) {
                for (int vehicle = 0; vehicle < 3; vehicle++) {
                    publisher.publish(
                            Position.of(
                                    PREFIX + "LAG" + vehicle,
                                    start.plusSeconds(fix),
                                    40.40 + vehicle * 0.01 + fix * 0.00005,
                                    -3.70 + fix * 0.00005,
                                    40.0,
                                    90.0),
                            PayloadFormat.AVRO);
                }
                TimeUnit.MILLISECONDS.sleep(200);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<Position> positions(String prefix, int vehicles, int fixes, Instant start) {
        List<Position> positions = new ArrayList<>();
        for (int fix = 0; fix < fixes; fix++) {
            for (int vehicle = 0; vehicle < vehicles; vehicle++) {
                positions.add(Position.of(
                        prefix + vehicle,
                        start.plusSeconds(10L * fix),
                        41.39 + vehicle * 0.01 + fix * 0.0002,
                        2.16 + fix * 0.0002,
                        30.0,
                        10.0));
            }
        }
        return positions;
    }

    private static JsonNode status(RunningStack running, String... overrides) throws IOException {
        List<String> arguments = new ArrayList<>(List.of("status", "--json", "--set", "health.sample-window=0s"));
        for (String override : overrides) {
            arguments.add("--set");
            arguments.add(override);
        }
        FleetCommand.Result result = FleetCommand.run(running.settings(), arguments.toArray(String[]::new));
        assertThat(result.exitCode()).as("%s", result).isIn(0, 1);
        return JSON.readTree(result.out());
    }

    private static JsonNode check(JsonNode report, String area, String subject) {
        for (JsonNode check : report.path("checks")) {
            if (check.path("area").asText().equals(area)
                    && check.path("subject").asText().equals(subject)) {
                return check;
            }
        }
        return fail("No check %s / %s in %s", area, subject, report);
    }

    private static List<JsonNode> lagChecks(JsonNode report) {
        List<JsonNode> checks = new ArrayList<>();
        for (JsonNode check : report.path("checks")) {
            if (check.path("area").asText().equals("lag")
                    && check.path("subject").asText().startsWith("fleet-pipeline gps.raw.positions/")) {
                checks.add(check);
            }
        }
        return checks;
    }

    private static List<Sample> scrape(StackSettings settings, StackPort port) {
        return PrometheusText.scrape(URI.create("http://" + settings.host() + ":" + settings.port(port) + "/metrics"));
    }

    private static List<String> names(List<Sample> samples) {
        return samples.stream().map(Sample::name).distinct().toList();
    }

    private static List<String> labelValues(List<Sample> samples, String name, String label) {
        return samples.stream()
                .filter(sample -> sample.name().equals(name))
                .flatMap(sample -> sample.label(label).stream())
                .distinct()
                .toList();
    }

    private static double sum(List<Sample> samples, String name) {
        return samples.stream()
                .filter(sample -> sample.name().equals(name))
                .mapToDouble(Sample::value)
                .sum();
    }

    private static double value(List<Sample> samples, String name, Map<String, String> labels) {
        return samples.stream()
                .filter(sample ->
                        sample.name().equals(name) && sample.labels().entrySet().containsAll(labels.entrySet()))
                .mapToDouble(Sample::value)
                .findFirst()
                .orElseThrow(() -> new AssertionError("No sample " + name + labels + " among " + names(samples)));
    }

    private static String get(URI uri) throws IOException, InterruptedException {
        return get(uri, null);
    }

    private static String get(URI uri, String user) throws IOException, InterruptedException {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET();
        if (user != null) {
            request.header(
                    "Authorization",
                    "Basic " + Base64.getEncoder().encodeToString((user + ":").getBytes(StandardCharsets.UTF_8)));
        }
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", uri, response.body()).isEqualTo(200);
        return response.body();
    }
}
