package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.model.MqttTopics;
import io.fleetlake.model.Position;
import io.fleetlake.model.Tables;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.stack.inspect.TrinoInspector;
import io.fleetlake.stack.it.SharedStack.RunningStack;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code fleet verify} on the real stack: a clean flow passes, and a duplicate and a loss planted in {@code
 * fleet.positions} (through Trino, around the pipeline) are found and named, with exit status 1.
 */
@ExtendWith(SharedStack.class)
class VerifyIT {
    private static final String PREFIX = "VFY-";
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
