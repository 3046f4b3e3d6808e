package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import io.fleetlake.connect.client.ConnectRestClient;
import io.fleetlake.model.MqttTopics;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectedColumns;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.Tables;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.operations.inspect.ConnectInspector;
import io.fleetlake.operations.inspect.FlinkInspector;
import io.fleetlake.operations.inspect.FlinkInspector.PipelineRestarts;
import io.fleetlake.operations.inspect.TrinoInspector;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.StackHealthSources;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.cluster.StackFlinkRest;
import io.fleetlake.stack.identity.StackServiceSecrets;
import io.fleetlake.stack.it.SharedStack.RunningStack;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code fleet verify} on the real stack: a clean flow passes; a duplicate, a loss and a conflicting resend planted
 * around the pipeline (through Trino) are found and named; a stopped pipeline, a frozen Iceberg commit and a job whose
 * checkpoints keep failing make it fail as stalled, and it passes again once the pipeline has caught up; a stack under
 * MQTT load passes. The hop before Kafka: under load a healthy stack shows no gap, and positions the MQTT broker
 * accepted while the ingest connector's session was gone (stopped connector, session cleared) are found as a gap, with
 * exit status 1. Each case uses vehicles of its own.
 */
@ExtendWith(SharedStack.class)
@ResourceLock(SharedStack.LOCK)
class VerifyIT {
    private static final String PREFIX = "VFY-";
    private static final String HOP_PREFIX = "VFYHOP-";
    private static final int HOP_VEHICLES = 10;
    /** ingest-connect's MqttSourceConfig key and default (the stack module does not depend on the connector). */
    private static final String CLIENT_ID_PREFIX = "mqtt.client-id-prefix";

    private static final String DEFAULT_CLIENT_ID_PREFIX = "fleet-ingest";
    private static final int VEHICLES = 3;
    private static final int FIXES = 8;
    private static final Duration TIMEOUT = Duration.ofMinutes(4);
    /** Short enough that a stall is seen quickly, far above what a healthy pipeline with 2 s checkpoints needs. */
    private static final Duration STALLED_AFTER = Duration.ofSeconds(10);
    // The tests of lost, duplicated and stalled records need no long look at the hop before Kafka (its own tests
    // below take one): each verification then lasts as long as its checks, not the 10 s default window.
    private static final String HOP_WINDOW = "--hop-window";
    private static final String SHORT_HOP = "1s";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Logger LOG = LoggerFactory.getLogger(VerifyIT.class);

    @Test
    void findsAPlantedDuplicateLossAndConflictAndPassesOtherwise(RunningStack running) throws Exception {
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
        Position resent = positions.get(4); // VFY-2, second fix
        Position conflicted = positions.get(5); // VFY-3, second fix
        Position conflicting = Position.of(
                conflicted.vehicleId(), conflicted.eventTime(), conflicted.latitude() + 0.0001, -3.70, 31.0, 0.0);
        try (TestPublisher publisher = TestPublisher.connect(running.settings(), "verify-test")) {
            publisher.publishAll(positions);
            publisher.publish(resent, PayloadFormat.JSON); // a device resend: same position, other encoding
            publisher.publish(conflicting, PayloadFormat.JSON); // same key, other content: CONFLICTING_RESEND
            publisher.publishRaw(
                    MqttTopics.positionTopic(PREFIX + "BAD"), "{not json".getBytes(StandardCharsets.UTF_8));
            publisher.awaitAcknowledgements();
        }
        TrinoInspector trino = new TrinoInspector(running.settings().trino(TrinoUser.MONITOR));
        await().atMost(TIMEOUT)
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> rows(trino, PREFIX + "%") == positions.size());

        FleetCommand.Result clean = verify(running, PREFIX, "--wait", "3m");
        assertThat(clean.exitCode()).as("%s", clean).isZero();
        JsonNode report = JSON.readTree(clean.out());
        assertThat(report.path("passed").asBoolean()).isTrue();
        assertThat(report.at("/raw/records").asLong())
                .as("positions, the resend, the conflicting resend and the bad payload")
                .isEqualTo(27);
        assertThat(report.at("/raw/distinct_keys").asLong()).isEqualTo(24);
        assertThat(report.at("/raw/undecodable").asLong()).isEqualTo(1);
        assertThat(report.at("/raw/resends_dropped").asLong()).isEqualTo(1);
        assertThat(report.at("/resends_dropped/samples/0").asText()).startsWith(PREFIX + "2@" + resent.eventTime());
        assertThat(report.at("/raw/written").asLong()).isEqualTo(24);
        assertThat(report.at("/raw/rejected").asLong())
                .as("the bad payload and the conflicting resend, each with its own rejected row")
                .isEqualTo(2);
        assertThat(report.at("/raw/conflicting").asLong()).isZero();
        assertThat(report.at("/raw/stalled").asLong()).isZero();
        assertThat(report.at("/positions/rows").asLong()).isEqualTo(24);
        assertThat(report.at("/lost/total").asLong()).isZero();
        assertThat(report.at("/duplicated/keys").asLong()).isZero();
        assertThat(report.at("/wait/caught_up").asBoolean()).isTrue();
        assertThat(report.at("/redis/matching").asLong()).isEqualTo(VEHICLES);
        assertThat(report.at("/supervisor/launcher_running").asBoolean()).isTrue();
        assertThat(report.at("/pipeline/job_state").asText()).isEqualTo("RUNNING");
        assertThat(report.at("/pipeline/num_restarts").isNumber()).isTrue();

        Position duplicated = positions.get(3); // VFY-1, second fix
        Position lost = resent; // not its vehicle's newest, so Redis still agrees
        plant(
                running,
                "INSERT INTO " + Tables.qualified(Tables.POSITIONS) + " SELECT * FROM "
                        + Tables.qualified(Tables.POSITIONS) + " WHERE " + identifies(duplicated));
        plant(running, "DELETE FROM " + Tables.qualified(Tables.POSITIONS) + " WHERE " + identifies(lost));
        plant(
                running,
                "DELETE FROM " + Tables.qualified(Tables.REJECTED_POSITIONS) + " WHERE " + identifies(conflicted)
                        + " AND " + RejectedColumns.REASON + " = '" + RejectionReason.CONFLICTING_RESEND + "'");

        FleetCommand.Result found = verify(running, PREFIX, "--wait", "3m");
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
        assertThat(failed.at("/conflicting/keys").asLong())
                .as("the conflicting resend lost its rejected row: the stored row of its key is another position")
                .isEqualTo(1);
        assertThat(failed.at("/conflicting/samples/0").asText()).startsWith(PREFIX + "3@" + conflicted.eventTime());

        FleetCommand.Result text =
                FleetCommand.run(running.settings(), "verify", "--vehicle-prefix", PREFIX, HOP_WINDOW, SHORT_HOP);
        LOG.info("fleet verify: {}", text);
        assertThat(text.exitCode()).isEqualTo(1);
        assertThat(text.out())
                .contains("FAILED: 1 lost, 1 conflicting, 1 duplicated")
                .contains(PREFIX + "2@" + lost.eventTime())
                .contains(PREFIX + "1@" + duplicated.eventTime() + " (2 rows)");
    }

    @Test
    void findsPositionsTheBrokerAcceptedThatNeverReachedKafkaAndNoGapUnderLoad(RunningStack running) throws Exception {
        StackSettings settings = running.settings();
        ConnectRestClient admin = ConnectAccess.admin(settings);
        ConnectInspector connect = new ConnectInspector(
                StackHealthSources.connectUri(settings),
                Optional.of(StackServiceSecrets.of(settings).connectMonitor()));
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
        admin.stopConnector(FleetStack.CONNECTOR_NAME);
        try {
            await().atMost(TIMEOUT)
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() ->
                            connect.state(FleetStack.CONNECTOR_NAME).state().equals("STOPPED"));
            clearSession(settings, ingestClientId(admin));
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
            admin.resumeConnector(FleetStack.CONNECTOR_NAME);
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
    private static String ingestClientId(ConnectRestClient connect) {
        return connect.connectorConfig(FleetStack.CONNECTOR_NAME)
                        .orElseThrow()
                        .getOrDefault(CLIENT_ID_PREFIX, DEFAULT_CLIENT_ID_PREFIX)
                + "-0";
    }

    /**
     * Connects with {@code clientId} and a clean start, as a second worker of the ingest principal with the same id
     * would: the session goes. (A device can no longer do it: the broker admits a client id only for the principal
     * that owns it.)
     */
    private static void clearSession(StackSettings settings, String clientId) {
        Mqtt5BlockingClient client = TestGateways.client(settings, clientId, TestGateways.ingest(settings));
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

    @Test
    void aStoppedPipelineFailsAsStalledAndPassesOnceRestartedAndCaughtUp(RunningStack running) throws Exception {
        String prefix = "VSP-";
        AtomicReference<JsonNode> stalled = new AtomicReference<>();
        running.stack().stop(FleetStack.PIPELINE);
        List<Position> positions;
        try {
            positions = publishFixes(running, prefix);
            // The pipeline cannot catch up within --wait, and once the records are older than the threshold they are
            // stalled.
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofSeconds(2))
                    .untilAsserted(() -> {
                        FleetCommand.Result result = verify(
                                running, prefix, "--wait", "2s", "--stalled-after", STALLED_AFTER.toSeconds() + "s");
                        assertThat(result.exitCode()).as("%s", result).isEqualTo(1);
                        JsonNode report = JSON.readTree(result.out());
                        assertThat(report.at("/stalled/records").asLong()).isEqualTo(positions.size());
                        stalled.set(report);
                    });
        } finally {
            running.stack().start(FleetStack.PIPELINE);
        }
        JsonNode report = stalled.get();
        assertThat(report.path("passed").asBoolean()).isFalse();
        assertThat(report.at("/wait/caught_up").asBoolean())
                .as("--wait timed out")
                .isFalse();
        assertThat(report.at("/stalled/oldest_age_seconds").asLong()).isGreaterThan(STALLED_AFTER.toSeconds());
        assertThat(report.at("/stalled/partitions")).isNotEmpty();
        assertThat(report.at("/lost/total").asLong())
                .as("not committed past: stalled, not lost")
                .isZero();

        assertPassesOnceCaughtUp(running, prefix, positions.size());
    }

    @Test
    void aFrozenIcebergCommitFailsAsStalled(RunningStack running) throws Exception {
        String prefix = "VPC-";
        List<Position> positions;
        FleetCommand.Running verifying;
        // Frozen S3 storage: the pipeline cannot write the data files of a checkpoint, so no checkpoint completes
        // and it commits neither Iceberg snapshots nor Kafka offsets.
        running.stack().pause(FleetStack.S3);
        try {
            positions = publishFixes(running, prefix);
            Instant acknowledged = Instant.now();
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() ->
                            Duration.between(acknowledged, Instant.now()).compareTo(STALLED_AFTER.plusSeconds(2)) > 0);
            verifying = FleetCommand.start(
                    running.settings(),
                    "verify",
                    "--vehicle-prefix",
                    prefix,
                    "--stalled-after",
                    STALLED_AFTER.toSeconds() + "s",
                    HOP_WINDOW,
                    SHORT_HOP,
                    "--json");
            // Kafka answers while S3 is frozen; Trino cannot read the tables until it is resumed.
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> verifying.errSoFar().contains("through Trino"));
        } finally {
            running.stack().resume(FleetStack.S3);
        }
        FleetCommand.Result result = verifying.result().get(TIMEOUT.toMinutes(), TimeUnit.MINUTES);
        LOG.info("fleet verify while the Iceberg commit was frozen: {}", result);
        assertThat(result.exitCode()).as("%s", result).isEqualTo(1);
        JsonNode report = JSON.readTree(result.out());
        assertThat(report.at("/stalled/records").asLong()).isEqualTo(positions.size());

        assertPassesOnceCaughtUp(running, prefix, positions.size());
    }

    @Test
    void aJobWhoseCheckpointsKeepFailingFailsAsStalled(RunningStack running) throws Exception {
        String prefix = "VRL-";
        FlinkInspector flink = new FlinkInspector(StackFlinkRest.client(running.settings()));
        long restartsBefore = flink.pipelineRestarts().numRestarts().orElse(0);
        Path checkpoints =
                running.settings().componentDirectory(FleetStack.PIPELINE).resolve("checkpoints");
        Path aside = checkpoints.resolveSibling("checkpoints.moved-by-verify-it");
        List<Position> positions;
        // A file where the checkpoint directory was: every checkpoint fails, the job fails over and restarts, and
        // it cannot restore from its last checkpoint either, so it keeps restarting.
        Files.move(checkpoints, aside);
        Files.writeString(checkpoints, "not a directory: VerifyIT makes every checkpoint of the pipeline fail\n");
        try {
            positions = publishFixes(running, prefix);
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofSeconds(3))
                    .untilAsserted(() -> {
                        PipelineRestarts restarts = flink.pipelineRestarts();
                        assertThat(restarts.state().equals("RUNNING")
                                        && restarts.numRestarts().orElse(0) == restartsBefore)
                                .as("the job fails and restarts: %s", restarts)
                                .isFalse();
                        FleetCommand.Result result =
                                verify(running, prefix, "--stalled-after", STALLED_AFTER.toSeconds() + "s");
                        assertThat(result.exitCode()).as("%s", result).isEqualTo(1);
                        assertThat(JSON.readTree(result.out())
                                        .at("/stalled/records")
                                        .asLong())
                                .isEqualTo(positions.size());
                    });
        } finally {
            Files.delete(checkpoints);
            Files.move(aside, checkpoints);
        }
        assertPassesOnceCaughtUp(running, prefix, positions.size());
    }

    @Test
    void aHealthyStackUnderLoadPasses(RunningStack running) throws Exception {
        String prefix = "VLD-";
        try (LedgerPublishers load = LedgerPublishers.start(running.settings(), prefix, 2, 150)) {
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> load.published() > 6_000);
            // The default threshold, while the load goes on: records keep arriving, none waits long.
            FleetCommand.Result result = verify(running, prefix);
            LOG.info("fleet verify under load after {} positions published: {}", load.published(), result);
            assertThat(result.exitCode()).as("%s", result).isZero();
            JsonNode report = JSON.readTree(result.out());
            assertThat(report.at("/raw/stalled").asLong()).isZero();
            assertThat(report.at("/raw/written").asLong()).isPositive();
            assertThat(report.at("/lost/total").asLong()).isZero();
            assertThat(report.at("/conflicting/keys").asLong()).isZero();
            assertThat(report.at("/duplicated/keys").asLong()).isZero();
            load.stop(Duration.ofMinutes(1));
        }
    }

    /** Three vehicles, two fixes each, acknowledged by the broker. */
    private static List<Position> publishFixes(RunningStack running, String prefix) throws InterruptedException {
        Instant start = Instant.now().minus(10, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
        List<Position> positions = new ArrayList<>();
        for (int fix = 0; fix < 2; fix++) {
            for (int vehicle = 1; vehicle <= 3; vehicle++) {
                positions.add(Position.of(
                        prefix + vehicle, start.plusSeconds(10L * fix), 40.41 + vehicle * 0.01, -3.70, 30.0, 0.0));
            }
        }
        try (TestPublisher publisher = TestPublisher.connect(running.settings(), prefix.toLowerCase() + "test")) {
            publisher.publishAll(positions);
            publisher.awaitAcknowledgements();
        }
        return positions;
    }

    /** Once the pipeline has caught up, verify passes with the default threshold and every position has its row. */
    private static void assertPassesOnceCaughtUp(RunningStack running, String prefix, int positions) throws Exception {
        FleetCommand.Result result = verify(running, prefix, "--wait", "4m");
        assertThat(result.exitCode()).as("%s", result).isZero();
        JsonNode report = JSON.readTree(result.out());
        assertThat(report.at("/raw/stalled").asLong()).isZero();
        assertThat(report.at("/raw/written").asLong()).isEqualTo(positions);
        assertThat(report.at("/duplicated/keys").asLong()).isZero();
    }

    private static FleetCommand.Result verify(RunningStack running, String prefix, String... options) {
        List<String> command =
                new ArrayList<>(List.of("verify", "--vehicle-prefix", prefix, "--json", HOP_WINDOW, SHORT_HOP));
        command.addAll(List.of(options));
        FleetCommand.Result result = FleetCommand.run(running.settings(), command.toArray(String[]::new));
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
                    // A write: admin, through the iceberg_admin catalog.
                    try (Connection connection = running.settings()
                                    .trino(TrinoUser.ADMIN)
                                    .withSource("verify-it")
                                    .connect();
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
