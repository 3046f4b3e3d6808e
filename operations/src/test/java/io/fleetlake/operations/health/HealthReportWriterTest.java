package io.fleetlake.operations.health;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.operations.inspect.ConnectInspector.ConnectorState;
import java.util.List;
import org.junit.jupiter.api.Test;

class HealthReportWriterTest {
    private final HealthEvaluator evaluator = new HealthEvaluator(HealthThresholds.from(ConfigSource.empty()));

    @Test
    void theScreenEndsWithTheReasonsTheStackIsUnhealthy() {
        Snapshots snapshot = new Snapshots();
        snapshot.connector = new ConnectorState("mqtt-positions", "PAUSED", List.of());

        String text = HealthReportWriter.text(evaluator.evaluate(snapshot.build()));

        assertThat(text)
                .startsWith("Fleet status at 2026-12-01T12:00:00Z: UNHEALTHY (1 problem(s))")
                .contains("  FAIL connector  mqtt-positions PAUSED, no task: not RUNNING")
                .endsWith("Unhealthy because:" + System.lineSeparator()
                        + "  - ingest / connector: mqtt-positions PAUSED, no task: not RUNNING, positions wait in the MQTT"
                        + " broker" + System.lineSeparator());
    }

    @Test
    void theJsonCarriesTheVerdictTheChecksAndTheFigures() throws Exception {
        Snapshots snapshot = new Snapshots();
        HealthSnapshot built = snapshot.build();

        JsonNode json = new ObjectMapper().readTree(HealthReportWriter.json(evaluator.evaluate(built), built));

        assertThat(json.path("healthy").asBoolean()).isTrue();
        assertThat(json.path("status").asText()).isEqualTo("OK");
        assertThat(json.path("problems")).isEmpty();
        assertThat(json.path("lag").get(0).path("records").asLong()).isEqualTo(120);
        assertThat(json.path("lag").get(0).path("seconds").asDouble()).isEqualTo(4.0);
        assertThat(json.path("last_commit_age_seconds").path("fleet.positions").asDouble())
                .isEqualTo(5.0);
        assertThat(json.path("dead_letters")
                        .path("by_reason")
                        .path("OUTSIDE_REGION")
                        .asLong())
                .isEqualTo(3);
        assertThat(json.path("redis").path("oldest_age_seconds").asDouble()).isEqualTo(180.0);
        assertThat(json.path("connector").path("tasks").path("0").asText()).isEqualTo("RUNNING");
        assertThat(json.path("pipeline").path("restarts").asLong()).isZero();
        assertThat(json.path("checks").size()).isGreaterThan(5);
    }
}
