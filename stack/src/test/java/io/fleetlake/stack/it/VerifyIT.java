package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5Client;
import io.fleetlake.model.MqttTopics;
import io.fleetlake.model.Position;
import io.fleetlake.model.Tables;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.health.StackHealthSources;
import io.fleetlake.stack.inspect.ConnectInspector;
import io.fleetlake.stack.inspect.TrinoInspector;
import io.fleetlake.stack.it.SharedStack.RunningStack;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code fleet verify} on the real stack: a clean flow passes, and a duplicate and a loss planted in {@code
 * fleet.positions} (through Trino, around the pipeline) are found and named, with exit status 1. The hop before Kafka:
 * under load a healthy stack shows no gap, and positions the MQTT broker accepted while the ingest connector's session
 * was gone (stopped connector, session cleared) are found as a gap, with exit status 1.
 */
@ExtendWith(SharedStack.class)
class VerifyIT {
    private static final String PREFIX = "VFY-";
    private static final String HOP_PREFIX = "VFYHOP-";
    private static final int HOP_VEHICLES = 10;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** ingest-connect's MqttSourceConfig key and default (the stack module does not depend on the connector). */
    private static final String CLIENT_ID_PREFIX = "mqtt.client-id-prefix";

    private static final String DEFAULT_CLIENT_ID_PREFIX = "fleet-ingest";
    private static final int VEHICLES = 3;
    private static final int FIXES = 8;
    private static final Duration TIMEOUT = Duration.ofMinutes(4);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Logger LOG = LoggerFactory.getLogger(VerifyIT.class);

    @Test
    void findsAPlantedDuplicateAndAPlantedLossAndPassesOtherwise(RunningStack running) throws Exception {
        Instant start = Instant.now().minus(20, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
        List<Position> positions = new ArrayList<>();
        for (int fix = 0; fix < FIXES; fix++) {
            for (int vehicle = 1; vehicle <= VEHICLES; vehicle++) {
                positions.add(Position.of(
                        PREFIX + vehicle,
                        start.plusSeconds(10L * fix),
                        40.41 + vehicle * 0.01 + fix * 0.0002,
                        -3.70,
                        30.0,
                        0.0));
            }
        }
        try (TestPublisher publisher = TestPublisher.connect(running.settings(), "verify-test")) {
            publisher.publishAll(positions);
            publisher.publish(positions.get(4), PayloadFormat.JSON); // a device resend
            publisher.publishRaw(
                    MqttTopics.positionTopic(PREFIX + "BAD"), "{not json".getBytes(StandardCharsets.UTF_8));
            publisher.awaitAcknowledgements();
        }
        TrinoInspector trino = new TrinoInspector(running.settings().trinoJdbcUrl());
        await().atMost(TIMEOUT)
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> rows(trino, PREFIX + "%") == positions.size());

        FleetCommand.Result clean = verify(running);
        assertThat(clean.exitCode()).as("%s", clean).isZero();
        JsonNode report = JSON.readTree(clean.out());
        assertThat(report.path("passed").asBoolean()).isTrue();
        assertThat(report.at("/raw/records").asLong())
                .as("positions, the resend and the bad payload")
                .isEqualTo(26);
        assertThat(report.at("/raw/distinct_keys").asLong()).isEqualTo(24);
        assertThat(report.at("/raw/undecodable").asLong()).isEqualTo(1);
        assertThat(report.at("/raw/resends_dropped").asLong()).isEqualTo(1);
        assertThat(report.at("/raw/written").asLong()).isEqualTo(24);
        assertThat(report.at("/raw/rejected").asLong()).isEqualTo(1);
        assertThat(report.at("/positions/rows").asLong()).isEqualTo(24);
        assertThat(report.at("/lost/total").asLong()).isZero();
        assertThat(report.at("/duplicated/keys").asLong()).isZero();
        assertThat(report.at("/redis/matching").asLong()).isEqualTo(VEHICLES);
        assertThat(report.at("/supervisor/launcher_running").asBoolean()).isTrue();
        assertThat(report.at("/pipeline/job_state").asText()).isEqualTo("RUNNING");
        assertThat(report.at("/pipeline/num_restarts").isNumber()).isTrue();

        Position duplicated = positions.get(3); // VFY-1, second fix
        Position lost = positions.get(4); // VFY-2, second fix: not its newest, so Redis still agrees
        plant(
                running,
                "INSERT INTO " + Tables.qualified(Tables.POSITIONS) + " SELECT * FROM "
                        + Tables.qualified(Tables.POSITIONS) + " WHERE " + identifies(duplicated));
        plant(running, "DELETE FROM " + Tables.qualified(Tables.POSITIONS) + " WHERE " + identifies(lost));

        FleetCommand.Result found = verify(running);
        assertThat(found.exitCode()).as("%s", found).isEqualTo(1);
        JsonNode failed = JSON.readTree(found.out());
        assertThat(failed.path("passed").asBoolean()).isFalse();
        assertThat(failed.at("/lost/total").asLong()).isEqualTo(1);
        assertThat(failed.at("/lost/samples/0").asText()).isEqualTo(PREFIX + "2@" + lost.eventTime());
        assertThat(failed.at("/duplicated/keys").asLong()).isEqualTo(1);
        assertThat(failed.at("/duplicated/samples/0").asText())
                .isEqualTo(PREFIX + "1@" + duplicated.eventTime() + " (2 rows)");
        assertThat(failed.at("/raw/resends_dropped").asLong())
                .as("the resend of the lost fix is lost too, not a resend")
                .isZero();

        FleetCommand.Result text = FleetCommand.run(running.settings(), "verify", "--vehicle-prefix", PREFIX);
        LOG.info("fleet verify: {}", text);
        assertThat(text.exitCode()).isEqualTo(1);
        assertThat(text.out())
                .contains("FAILED: 1 lost, 1 duplicated")
                .contains(PREFIX + "2@" + lost.eventTime())
                .contains(PREFIX + "1@" + duplicated.eventTime() + " (2 rows)");
    }

    @Test
    void findsPositionsTheBrokerAcceptedThatNeverReachedKafkaAndNoGapUnderLoad(RunningStack running) throws Exception {
        StackSettings settings = running.settings();
        String connector = StackHealthSources.connectUri(settings) + "/connectors/" + FleetStack.CONNECTOR_NAME;
        ConnectInspector connect = new ConnectInspector(StackHealthSources.connectUri(settings));
        Instant start = Instant.now().minus(30, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
        AtomicInteger fix = new AtomicInteger();

        try (Load load = Load.start(settings, "verify-hop-healthy", start, fix)) {
            FleetCommand.Result healthy = verifyHop(running);
            JsonNode report = JSON.readTree(healthy.out());
            assertThat(report.at("/ingest_hop/reconciled").asBoolean())
                    .as("%s", healthy)
                    .isTrue();
            assertThat(report.at("/ingest_hop/accepted").asLong())
                    .as("positions published during the window")
                    .isGreaterThan(100);
            assertThat(report.at("/ingest_hop/gap").asLong()).isZero();
            assertThat(report.at("/ingest_hop/dropped").asLong()).isZero();
            assertThat(healthy.exitCode()).as("%s", healthy).isZero();
            LOG.info("Healthy under load: {}", report.path("ingest_hop"));
        }

        // The fault: the connector stops (its session keeps the subscription), then someone connects with its client id
        // and a clean start, which discards the session. The broker still accepts every position, and has no one to
        // deliver them to: they never reach Kafka, and the broker drops nothing it would count.
        OperationsIT.put(URI.create(connector + "/stop"));
        try {
            await().atMost(TIMEOUT)
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() ->
                            connect.state(FleetStack.CONNECTOR_NAME).state().equals("STOPPED"));
            clearSession(settings, ingestClientId(connector));
            try (Load load = Load.start(settings, "verify-hop-lost", start, fix)) {
                FleetCommand.Result lost = verifyHop(running);
                JsonNode report = JSON.readTree(lost.out());
                assertThat(lost.exitCode()).as("%s", lost).isEqualTo(1);
                assertThat(report.at("/ingest_hop/accepted").asLong()).isGreaterThan(100);
                assertThat(report.at("/ingest_hop/raw_records").asLong()).isZero();
                assertThat(report.at("/ingest_hop/queued_at_end").asLong()).isZero();
                assertThat(report.at("/ingest_hop/gap").asLong())
                        .as("every position accepted in the window")
                        .isEqualTo(report.at("/ingest_hop/accepted").asLong());
                assertThat(report.at("/lost/total").asLong())
                        .as("the tables hold every raw record: the loss is before Kafka")
                        .isZero();
                LOG.info("Session cleared: {}", report.path("ingest_hop"));
            }
        } finally {
            OperationsIT.put(URI.create(connector + "/resume"));
        }
        await().atMost(TIMEOUT)
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> connect.state(FleetStack.CONNECTOR_NAME).running()
                        && connect.ingestHealth().healthy());
    }

    private static FleetCommand.Result verifyHop(RunningStack running) {
        FleetCommand.Result result = FleetCommand.run(
                running.settings(), "verify", "--vehicle-prefix", HOP_PREFIX, "--hop-window", "15s", "--json");
        LOG.info("fleet verify: {}", result);
        return result;
    }

    /** The MQTT client id of the connector's task 0, as the connector's configuration sets it. */
    private static String ingestClientId(String connector) throws Exception {
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(URI.create(connector + "/config"))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body()).path(CLIENT_ID_PREFIX).asText(DEFAULT_CLIENT_ID_PREFIX) + "-0";
    }

    /** Connects with {@code clientId} and a clean start, as a second device with the same id would: the session goes. */
    private static void clearSession(StackSettings settings, String clientId) {
        URI mqtt = URI.create(settings.mqttUri());
        Mqtt5BlockingClient client = Mqtt5Client.builder()
                .identifier(clientId)
                .serverHost(mqtt.getHost())
                .serverPort(mqtt.getPort())
                .buildBlocking();
        assertThat(client.connectWith()
                        .cleanStart(true)
                        .sessionExpiryInterval(0)
                        .send()
                        .isSessionPresent())
                .isFalse();
        client.disconnect();
    }

    /** Devices publishing valid positions at about 100 per second until closed. */
    private static final class Load implements AutoCloseable {
        private final TestPublisher publisher;
        private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

        private Load(TestPublisher publisher) {
            this.publisher = publisher;
        }

        static Load start(StackSettings settings, String clientId, Instant start, AtomicInteger fix) {
            Load load = new Load(TestPublisher.connect(settings, clientId));
            load.timer.scheduleAtFixedRate(
                    () -> {
                        int next = fix.getAndIncrement();
                        for (int vehicle = 0; vehicle < HOP_VEHICLES; vehicle++) {
                            try {
                                load.publisher.publish(
                                        Position.of(
                                                HOP_PREFIX + vehicle,
                                                start.plusSeconds(next),
                                                40.40 + vehicle * 0.01 + next * 0.00005,
                                                -3.70 + next * 0.00005,
                                                40.0,
                                                90.0),
                                        PayloadFormat.AVRO);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                                return;
                            }
                        }
                    },
                    0,
                    100,
                    TimeUnit.MILLISECONDS);
            return load;
        }

        @Override
        public void close() throws InterruptedException {
            timer.shutdown();
            assertThat(timer.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
            publisher.awaitAcknowledgements();
            publisher.close();
        }
    }

    private static FleetCommand.Result verify(RunningStack running) {
        FleetCommand.Result result =
                FleetCommand.run(running.settings(), "verify", "--vehicle-prefix", PREFIX, "--wait", "3m", "--json");
        LOG.info("fleet verify: {}", result);
        return result;
    }

    private static String identifies(Position position) {
        return "vehicle_id = '" + position.vehicleId() + "' AND event_time = from_iso8601_timestamp('"
                + position.eventTime() + "')";
    }

    /** Runs a write through Trino, again when it loses a commit race with the pipeline's own commits. */
    private static void plant(RunningStack running, String sql) {
        await().atMost(TIMEOUT)
                .pollInterval(Duration.ofSeconds(2))
                .ignoreExceptions()
                .untilAsserted(() -> {
                    Properties properties = new Properties();
                    properties.setProperty("user", "verify-it");
                    try (Connection connection = DriverManager.getConnection(
                                    running.settings().trinoJdbcUrl(), properties);
                            Statement statement = connection.createStatement()) {
                        assertThat(statement.executeUpdate(sql)).as(sql).isEqualTo(1);
                    }
                });
    }

    private static long rows(TrinoInspector trino, String pattern) throws Exception {
        return Long.parseLong(trino.query(
                        "SELECT count(*) FROM " + Tables.qualified(Tables.POSITIONS) + " WHERE vehicle_id LIKE ?",
                        pattern)
                .get(0)
                .get(0));
    }
}
