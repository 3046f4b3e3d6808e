package io.fleetlake.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class IngestHealthTest {
    private static final Duration LIMIT = Duration.ofSeconds(60);

    @Test
    void runningAndMovingIsHealthy() {
        IngestHealth health = IngestHealth.evaluate(
                "mqtt-positions", 1, Optional.of(status("RUNNING", "RUNNING")), Map.of(0, progress(5, 59)), LIMIT);

        assertThat(health.healthy()).isTrue();
        assertThat(health.problems()).isEmpty();
        assertThat(health.toJson()).contains("\"healthy\" : true").contains("\"oldest_pending_age_ms\" : 59000");
    }

    @Test
    void idleConnectorIsHealthy() {
        assertThat(IngestHealth.evaluate(
                                "mqtt-positions",
                                1,
                                Optional.of(status("RUNNING", "RUNNING")),
                                Map.of(0, progress(0, 0)),
                                LIMIT)
                        .healthy())
                .isTrue();
    }

    @Test
    void runningButStuckIsUnhealthy() {
        IngestHealth health = IngestHealth.evaluate(
                "mqtt-positions", 1, Optional.of(status("RUNNING", "RUNNING")), Map.of(0, progress(3, 61)), LIMIT);

        assertThat(health.healthy()).isFalse();
        assertThat(health.problems())
                .containsExactly(
                        "Task 0 has 3 message(s) pending; the oldest has waited 61 s for Kafka, more than 60 s");
    }

    @Test
    void everyStateButRunningIsUnhealthy() {
        IngestHealth health = IngestHealth.evaluate(
                "mqtt-positions", 2, Optional.of(status("UNASSIGNED", "FAILED")), Map.of(0, progress(0, 0)), LIMIT);

        assertThat(health.problems())
                .containsExactly(
                        "Connector mqtt-positions is UNASSIGNED",
                        "Connector mqtt-positions has 1 task(s), not 2",
                        "Task 0 is FAILED: boom",
                        "Task 1 does not run in this worker");
    }

    @Test
    void statusLeftByAnEarlierProcessIsNotEnough() {
        IngestHealth health =
                IngestHealth.evaluate("mqtt-positions", 1, Optional.of(status("RUNNING", "RUNNING")), Map.of(), LIMIT);

        assertThat(health.problems()).containsExactly("Task 0 does not run in this worker");
    }

    @Test
    void disconnectedFromMqttIsUnhealthy() {
        TaskProgress disconnected = new TaskProgress(0, 10, 10, 0, 0, Duration.ZERO, false);

        assertThat(IngestHealth.evaluate(
                                "mqtt-positions",
                                1,
                                Optional.of(status("RUNNING", "RUNNING")),
                                Map.of(0, disconnected),
                                LIMIT)
                        .problems())
                .containsExactly("Task 0 is not connected to the MQTT broker");
    }

    @Test
    void unregisteredConnectorIsUnhealthy() {
        assertThat(IngestHealth.evaluate("mqtt-positions", 1, Optional.empty(), Map.of(), LIMIT)
                        .problems())
                .startsWith("Connector mqtt-positions is not registered");
    }

    private static ConnectorStatus status(String connector, String task) {
        Optional<String> trace = task.equals("FAILED") ? Optional.of("boom\n\tat x") : Optional.empty();
        return new ConnectorStatus(
                "mqtt-positions", connector, Optional.empty(), List.of(new ConnectorStatus.TaskStatus(0, task, trace)));
    }

    private static TaskProgress progress(long pending, long oldestSeconds) {
        return new TaskProgress(0, 100, 100 - pending, 0, pending, Duration.ofSeconds(oldestSeconds), true);
    }
}
